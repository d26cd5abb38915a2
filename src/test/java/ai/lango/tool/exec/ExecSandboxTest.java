package ai.lango.tool.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exec in bubblewrap, as an attacker's command would probe it: no other process, no server
 * environment, no network, nothing outside the workspace, the system read-only. Skipped where
 * bubblewrap is not installed (.ci/run installs it).
 */
class ExecSandboxTest {

    private static final Path BWRAP = Path.of("/usr/bin/bwrap");

    @TempDir
    Path dir;

    private ExecTool sandboxed(Map<String, String> serverEnv, boolean network) throws Exception {
        assumeTrue(Files.isExecutable(BWRAP), "bubblewrap is not installed");
        Path workspace = Files.createDirectories(dir.resolve("workspace"));
        return new ExecTool(WorkspaceTool.fixed(new Workspace(workspace)), Duration.ofSeconds(20), List.of(), serverEnv,
                Optional.of(BWRAP), network);
    }

    private static String run(ExecTool exec, String command) throws Exception {
        return (String) exec.call(Map.of("command", command), null).get("output");
    }

    @Test
    void aSandboxedCommandSeesOnlyItsOwnProcessesAndNoServerEnvironment() throws Exception {
        ExecTool exec = sandboxed(Map.of("PATH", "/usr/bin:/bin", "LANGO_AUTH_TOKEN", "tok-server-123"), false);
        String output = run(exec, "ls /proc | grep -c '^[0-9]'; cat /proc/[0-9]*/environ | tr '\\000' '\\n' | grep -c LANGO_;"
                + " cat /proc/[0-9]*/cmdline | tr '\\000' ' ' | grep -c 'ja[v]a'; echo HOME=$HOME");
        String[] lines = output.strip().split("\n");
        assertTrue(Integer.parseInt(lines[0].strip()) < 10, "only the sandbox's processes: " + output);
        assertEquals("0", lines[1].strip(), "no process shows the server's environment: " + output);
        assertEquals("0", lines[2].strip(), "the server's JVM is not visible: " + output);
        assertEquals("HOME=" + ExecSandbox.HOME, lines[3].strip());
    }

    @Test
    void aSandboxedCommandReachesNoNetworkUnlessAllowed() throws Exception {
        try (ServerSocket listening = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            String probe = "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + listening.getLocalPort() + "' 2>/dev/null && echo open || echo closed";
            assertEquals("closed", run(sandboxed(Map.of("PATH", "/usr/bin:/bin"), false), probe).strip());
            assertEquals("open", run(sandboxed(Map.of("PATH", "/usr/bin:/bin"), true), probe).strip(),
                    "lango.tools.exec.network=true shares the server's network");
        }
    }

    @Test
    void aSandboxedCommandWritesOnlyItsWorkspaceAndSeesNothingOfTheServersFiles() throws Exception {
        Path outside = Files.writeString(dir.resolve("server-secret.txt"), "the server's file");
        ExecTool exec = sandboxed(Map.of("PATH", "/usr/bin:/bin"), false);
        String output = run(exec, "echo kept > mine.txt; touch /usr/planted 2>/dev/null && echo usr-writable;"
                + " cat " + outside + " 2>/dev/null || echo outside-hidden; wc -c < /etc/shadow 2>/dev/null || echo no-shadow");
        assertTrue(output.contains("outside-hidden"), output);
        assertFalse(output.contains("usr-writable") || output.contains("the server's file"), output);
        assertTrue(output.contains("no-shadow") || output.strip().endsWith("0"), "the system's keys are hidden: " + output);
        assertEquals("kept\n", Files.readString(dir.resolve("workspace/mine.txt")));
    }

    @Test
    void theApprovalCardListsTheFilesChangedSinceTheLastApprovedCommand() throws Exception {
        Path workspace = Files.createDirectories(dir.resolve("ws"));
        ExecTool exec = new ExecTool(WorkspaceTool.fixed(new Workspace(workspace)), Duration.ofSeconds(5), List.of(),
                Map.of(), Optional.empty(), true);
        Files.writeString(workspace.resolve("old.txt"), "before");
        Files.setLastModifiedTime(workspace.resolve("old.txt"), java.nio.file.attribute.FileTime.from(Instant.now().minusSeconds(60)));
        Instant lastApproved = Instant.now().minusSeconds(30);
        Files.createDirectories(workspace.resolve(".git"));
        Files.writeString(workspace.resolve(".git/config"), "[core]\n\tfsmonitor = touch GITPWN\n");

        Map<String, Object> notes = exec.approvalNotes(Map.of("command", "git status"), null, lastApproved);
        assertEquals(List.of(".git/config"), notes.get("changedFiles"), notes.toString());
        assertEquals(List.of(".git/config", "old.txt"), exec.approvalNotes(Map.of(), null, null).get("changedFiles"),
                "with no approved command before, every file");
    }
}
