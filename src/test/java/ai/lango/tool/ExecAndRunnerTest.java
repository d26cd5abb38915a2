package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.masking.SecretMask;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecAndRunnerTest {

    @TempDir
    Path dir;

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private ExecTool exec(Duration timeout) {
        return new ExecTool(new Workspace(dir), timeout);
    }

    @Test
    void execReturnsOutputAndExitCodeAndRunsInTheWorkspace() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(10)).call(Map.of("command", "pwd; exit 3"));
        assertEquals(3, result.get("exitCode"));
        assertEquals(dir.toRealPath() + "\n", result.get("output"));
        assertEquals(false, result.get("timedOut"));
    }

    @Test
    void execTimesOutAndKillsTheCommand() throws Exception {
        long start = System.nanoTime();
        Map<String, Object> result = exec(Duration.ofMillis(300)).call(Map.of("command", "sleep 5 & sleep 5; echo late"));
        assertEquals(true, result.get("timedOut"));
        assertTrue(System.nanoTime() - start < 4_000_000_000L, "killed long before the command would have ended");
        assertFalse(((String) result.get("output")).contains("late"));
    }

    @Test
    void execRunsWithAMinimalEnvironmentWithoutTheServersSecrets() throws Exception {
        Map<String, String> server = Map.of("PATH", "/usr/bin:/bin", "LANGO_PROVIDERS_OPENAI_API_KEY", "sk-server-key-123",
                "LANGO_AUTH_TOKEN", "tok-server-123", "OPENAI_API_KEY", "sk-other-123", "JAVA_HOME", "/opt/jdk",
                "GOPATH", "/srv/go");
        ExecTool exec = new ExecTool(new Workspace(dir), Duration.ofSeconds(10), java.util.List.of("JAVA_HOME", "MISSING"), server);

        String output = (String) exec.call(Map.of("command", "env")).get("output");

        assertFalse(output.contains("LANGO_"), output);
        assertFalse(output.contains("sk-"), output);
        assertFalse(output.contains("GOPATH"), "only the variables named are passed: " + output);
        assertTrue(output.contains("JAVA_HOME=/opt/jdk"), output);
        assertTrue(output.contains("HOME=" + dir.toRealPath()), output);
        assertTrue(output.contains("PATH=/usr/bin:/bin"), output);
    }

    @Test
    void aBackgroundChildDoesNotOutliveItsCommand() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(10)).call(Map.of("command", "(sleep 1; touch escaped) & echo started"));
        assertEquals(0, result.get("exitCode"));
        Thread.sleep(2_000);
        assertFalse(java.nio.file.Files.exists(dir.resolve("escaped")), "the background child was ended with its command");
    }

    @Test
    void aTimeoutEndsTheWholeProcessGroupEvenADetachedGrandchild() throws Exception {
        // The inner subshell is orphaned at once (its parent subshell exits), so it is no descendant of the command.
        Map<String, Object> result = exec(Duration.ofMillis(500))
                .call(Map.of("command", "( (sleep 1; touch escaped) & ); sleep 30"));
        assertEquals(true, result.get("timedOut"));
        Thread.sleep(1_500);
        assertFalse(java.nio.file.Files.exists(dir.resolve("escaped")), "the whole group was ended on timeout");
    }

    @Test
    void knownSecretsInAToolResultAreMaskedAndReferencesResolvedBeforeItRuns() {
        SecretMask.configured(Map.of("lango.providers.openai.api-key", "sk-secret-value-42", "short", "abc"));
        try {
            References vault = (args, caller) -> Map.of("x", String.valueOf(args.get("x")).replace("{{secret:k}}", "sk-secret-value-42"));
            ToolRunner runner = new ToolRunner(executor, Duration.ofSeconds(5), vault);
            Map<String, Object> result = runner.run(tool("leaky", args -> Map.of("output", "key=" + args.get("x") + " abc",
                    "nested", java.util.List.of(Map.of("v", "x sk-secret-value-42")))), Map.of("x", "{{secret:k}}"));
            assertEquals("key=[SECRET:lango.providers.openai.api-key] abc", result.get("output"),
                    "the tool got the value; secrets under 4 characters are not searched for");
            assertEquals(java.util.List.of(Map.of("v", "x [SECRET:lango.providers.openai.api-key]")), result.get("nested"));
            ToolRunner refusing = new ToolRunner(executor, Duration.ofSeconds(5), (args, caller) -> {
                throw new ToolException("there is no secret \"nope\"");
            });
            boolean[] ran = {false};
            Map<String, Object> refused = refusing.run(tool("t", args -> {
                ran[0] = true;
                return Map.of();
            }), Map.of("x", "{{secret:nope}}"));
            assertEquals("there is no secret \"nope\"", refused.get("error"));
            assertFalse(ran[0], "a call naming an unknown secret does not run");
        } finally {
            SecretMask.configured(Map.of());
        }
    }

    @Test
    void execCapsOutputAndMarksTheCut() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(20)).call(Map.of("command", "yes | head -c 1000000"));
        String output = (String) result.get("output");
        assertTrue(output.length() < ExecTool.OUTPUT_CAP + 200);
        assertTrue(output.endsWith("[output truncated: " + (1_000_000 - ExecTool.OUTPUT_CAP) + " bytes omitted]"), output.substring(output.length() - 80));
    }

    @Test
    void execToolsetIsOnOnlyWhenEnabledAndTheFileToolsetAlways() {
        assertFalse(new ExecToolset(new LangoSettings.ToolSettings(dir, false, Duration.ofSeconds(1))).enabled());
        assertTrue(new ExecToolset(new LangoSettings.ToolSettings(dir, true, Duration.ofSeconds(1))).enabled());
        assertTrue(new FileToolset(new LangoSettings.ToolSettings(dir, false, Duration.ofSeconds(1))).enabled());
    }

    private static Tool tool(String name, SimpleTool.Handler handler) {
        return new SimpleTool(name, "test", Safety.SAFE, Map.of("type", "object", "required", java.util.List.of("x")), handler);
    }

    @Test
    void toolTimeoutBecomesAnErrorNamingToolAndDuration() {
        ToolRunner runner = new ToolRunner(executor, Duration.ofMillis(200));
        Map<String, Object> result = runner.run(tool("slow", args -> {
            Thread.sleep(5_000);
            return Map.of();
        }), Map.of("x", 1));
        assertEquals(Map.of("error", "tool \"slow\" timed out after 200ms"), result);
    }

    @Test
    void toolExceptionBecomesAnErrorResultNotACrash() {
        ToolRunner runner = new ToolRunner(executor, Duration.ofSeconds(5));
        assertEquals(Map.of("error", "tool \"boom\" failed: IllegalStateException: disk on fire"),
                runner.run(tool("boom", args -> {
                    throw new IllegalStateException("disk on fire");
                }), Map.of("x", 1)));
        assertEquals(Map.of("error", "no such file"), runner.run(tool("refuses", args -> {
            throw new ToolException("no such file");
        }), Map.of("x", 1)));
    }

    @Test
    void missingRequiredParameterIsReportedWithoutCallingTheTool() {
        AtomicBoolean called = new AtomicBoolean();
        Map<String, Object> result = new ToolRunner(executor, Duration.ofSeconds(5)).run(tool("needs", args -> {
            called.set(true);
            return Map.of();
        }), Map.of());
        assertEquals(Map.of("error", "tool \"needs\": missing required parameter \"x\""), result);
        assertFalse(called.get());
    }

    @Test
    void durationsPrintAsPeopleWriteThem() {
        assertEquals("500ms", ToolRunner.human(Duration.ofMillis(500)));
        assertEquals("30s", ToolRunner.human(Duration.ofSeconds(30)));
        assertEquals("2m", ToolRunner.human(Duration.ofMinutes(2)));
        assertEquals("1m30s", ToolRunner.human(Duration.ofSeconds(90)));
    }
}
