package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void execCapsOutputAndMarksTheCut() throws Exception {
        Map<String, Object> result = exec(Duration.ofSeconds(20)).call(Map.of("command", "yes | head -c 1000000"));
        String output = (String) result.get("output");
        assertTrue(output.length() < ExecTool.OUTPUT_CAP + 200);
        assertTrue(output.endsWith("[output truncated: " + (1_000_000 - ExecTool.OUTPUT_CAP) + " bytes omitted]"), output.substring(output.length() - 80));
    }

    @Test
    void builtinToolsHaveNoExecUnlessEnabled() {
        assertFalse(BuiltinTools.create(dir, false, Duration.ofSeconds(1)).stream().anyMatch(t -> t.name().equals("exec")));
        assertTrue(BuiltinTools.create(dir, true, Duration.ofSeconds(1)).stream().anyMatch(t -> t.name().equals("exec")));
    }

    private static Tool tool(String name, SimpleTool.Handler handler) {
        return new SimpleTool(name, "test", Map.of("type", "object", "required", java.util.List.of("x")), SafetyLevel.SAFE, handler);
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
