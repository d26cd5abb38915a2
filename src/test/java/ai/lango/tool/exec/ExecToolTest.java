package ai.lango.tool.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import ai.lango.tool.fs.FileToolset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecToolTest {

    @TempDir
    Path dir;

    private ExecTool exec(Duration timeout) {
        return new ExecTool(new Workspace(dir), timeout);
    }

    @Test
    void execReturnsOutputAndExitCodeAndRunsInTheWorkspace() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(10)).call(Map.of("command", "pwd; exit 3"), null);
        assertEquals(3, result.get("exitCode"));
        assertEquals(dir.toRealPath() + "\n", result.get("output"));
        assertEquals(false, result.get("timedOut"));
    }

    @Test
    void execTimesOutAndKillsTheCommand() throws Exception {
        long start = System.nanoTime();
        Map<String, Object> result = exec(Duration.ofMillis(300)).call(Map.of("command", "sleep 5 & sleep 5; echo late"), null);
        assertEquals(true, result.get("timedOut"));
        assertTrue(System.nanoTime() - start < 4_000_000_000L, "killed long before the command would have ended");
        assertFalse(((String) result.get("output")).contains("late"));
    }

    @Test
    void execRunsWithAMinimalEnvironmentWithoutTheServersSecrets() throws Exception {
        Map<String, String> server = Map.of("PATH", "/usr/bin:/bin", "LANGO_PROVIDERS_OPENAI_API_KEY", "sk-server-key-123",
                "LANGO_AUTH_TOKEN", "tok-server-123", "OPENAI_API_KEY", "sk-other-123", "JAVA_HOME", "/opt/jdk",
                "GOPATH", "/srv/go");
        ExecTool exec = new ExecTool(WorkspaceTool.fixed(new Workspace(dir)), Duration.ofSeconds(10), java.util.List.of("JAVA_HOME", "MISSING"),
                server, java.util.Optional.empty(), true);

        String output = (String) exec.call(Map.of("command", "env"), null).get("output");

        assertFalse(output.contains("LANGO_"), output);
        assertFalse(output.contains("sk-"), output);
        assertFalse(output.contains("GOPATH"), "only the variables named are passed: " + output);
        assertTrue(output.contains("JAVA_HOME=/opt/jdk"), output);
        assertTrue(output.contains("HOME=" + dir.toRealPath()), output);
        assertTrue(output.contains("PATH=/usr/bin:/bin"), output);
    }

    @Test
    void aBackgroundChildDoesNotOutliveItsCommand() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(10)).call(Map.of("command", "(sleep 1; touch escaped) & echo started"), null);
        assertEquals(0, result.get("exitCode"));
        Thread.sleep(2_000);
        assertFalse(java.nio.file.Files.exists(dir.resolve("escaped")), "the background child was ended with its command");
    }

    @Test
    void aTimeoutEndsTheWholeProcessGroupEvenADetachedGrandchild() throws Exception {
        // The inner subshell is orphaned at once (its parent subshell exits), so it is no descendant of the command.
        Map<String, Object> result = exec(Duration.ofMillis(500))
                .call(Map.of("command", "( (sleep 1; touch escaped) & ); sleep 30"), null);
        assertEquals(true, result.get("timedOut"));
        Thread.sleep(1_500);
        assertFalse(java.nio.file.Files.exists(dir.resolve("escaped")), "the whole group was ended on timeout");
    }

    @Test
    void execCapsOutputAndMarksTheCut() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(20)).call(Map.of("command", "yes | head -c 1000000"), null);
        String output = (String) result.get("output");
        assertTrue(output.length() < ExecTool.OUTPUT_CAP + 200);
        assertTrue(output.endsWith("[output truncated: " + (1_000_000 - ExecTool.OUTPUT_CAP) + " bytes omitted]"), output.substring(output.length() - 80));
    }

    @Test
    void execToolsetIsOnOnlyWhenEnabledAndTheFileToolsetAlways() {
        assertFalse(new ExecToolset(TestSettings.of(dir).tools()).enabled());
        assertTrue(new ExecToolset(TestSettings.of(dir, "lango.tools.exec.enabled", "true").tools()).enabled());
        assertTrue(new FileToolset(TestSettings.of(dir).tools()).enabled());
    }
}
