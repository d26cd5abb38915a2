package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ai.lango.masking.SecretMask;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ToolRunnerTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private static Tool tool(String name, DeclaredTool.Handler handler) {
        return DeclaredTool.of(ToolFamily.EXEC, name, Safety.SAFE, "test", Map.of("type", "object", "required", java.util.List.of("x")),
                handler);
    }

    /** What resolves the references of a call. */
    private interface Resolver {
        Map<String, Object> resolve(Map<String, Object> args, Caller caller) throws ToolException;
    }

    private static References references(Resolver resolver) {
        return new References() {
            @Override
            public Use inspect(Tool tool, Map<String, Object> args, Caller caller) {
                return Use.NONE;
            }

            @Override
            public Map<String, Object> resolve(Tool tool, Map<String, Object> args, Caller caller) throws ToolException {
                return resolver.resolve(args, caller);
            }
        };
    }

    @Test
    void knownSecretsInAToolResultAreMaskedAndReferencesResolvedBeforeItRuns() {
        SecretMask.configured(Map.of("lango.providers.openai.api-key", "sk-secret-value-42", "short", "abc"));
        try {
            References vault = references((args, caller) -> Map.of("x", String.valueOf(args.get("x"))
                    .replace("{{secret:k}}", "sk-secret-value-42")));
            ToolRunner runner = new ToolRunner(executor, Duration.ofSeconds(5), vault);
            Tool leaky = tool("leaky", (args, caller) -> Map.of("output", "key=" + args.get("x") + " abc",
                    "nested", java.util.List.of(Map.of("v", "x sk-secret-value-42"))));
            Map<String, Object> result = runner.run(leaky, Map.of("x", "{{secret:k}}"), new Caller("op", "s", true, false));
            assertEquals("key=[SECRET:lango.providers.openai.api-key] abc", result.get("output"),
                    "the tool got the value; secrets under 4 characters are not searched for");
            assertEquals(java.util.List.of(Map.of("v", "x [SECRET:lango.providers.openai.api-key]")), result.get("nested"));
            Map<String, Object> forUser = runner.run(leaky, Map.of("x", "{{secret:k}}"), new Caller("ann", "s", false, false));
            assertEquals("key=[SECRET] abc", forUser.get("output"), "a secret the caller may not use is unnamed to them");
            ToolRunner refusing = new ToolRunner(executor, Duration.ofSeconds(5), references((args, caller) -> {
                throw new ToolException("there is no secret \"nope\"");
            }));
            boolean[] ran = {false};
            Map<String, Object> refused = refusing.run(tool("t", (args, caller) -> {
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
    void toolTimeoutBecomesAnErrorNamingToolAndDuration() {
        ToolRunner runner = new ToolRunner(executor, Duration.ofMillis(200));
        Map<String, Object> result = runner.run(tool("slow", (args, caller) -> {
            Thread.sleep(5_000);
            return Map.of();
        }), Map.of("x", 1));
        assertEquals(Map.of("error", "tool \"slow\" timed out after 200ms"), result);
    }

    @Test
    void toolExceptionBecomesAnErrorResultNotACrash() {
        ToolRunner runner = new ToolRunner(executor, Duration.ofSeconds(5));
        assertEquals(Map.of("error", "tool \"boom\" failed: IllegalStateException: disk on fire"),
                runner.run(tool("boom", (args, caller) -> {
                    throw new IllegalStateException("disk on fire");
                }), Map.of("x", 1)));
        assertEquals(Map.of("error", "no such file"), runner.run(tool("refuses", (args, caller) -> {
            throw new ToolException("no such file");
        }), Map.of("x", 1)));
    }

    @Test
    void missingRequiredParameterIsReportedWithoutCallingTheTool() {
        AtomicBoolean called = new AtomicBoolean();
        Map<String, Object> result = new ToolRunner(executor, Duration.ofSeconds(5)).run(tool("needs", (args, caller) -> {
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
