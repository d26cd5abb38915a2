package ai.lango.adk.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.ToolArtifacts;
import ai.lango.tool.ToolRunner;
import com.google.adk.agents.InvocationContext;
import com.google.adk.sessions.Session;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.FunctionDeclaration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Lango tools as ADK function tools: declarations, arguments, results and errors. */
class ToolAdapterTest {

    @Test
    void toolAdapterTranslatesTheCallToTheInternalTool() {
        AtomicReference<Map<String, Object>> received = new AtomicReference<>();
        Tool echo = DeclaredTool.of(ToolFamily.EXEC, "echo", Safety.SAFE, "echoes",
                Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")), "required", List.of("text")),
                (args, caller) -> {
                    received.set(args);
                    return Map.of("echo", args.get("text"));
                });
        ToolAdapter adapter = new ToolAdapter(echo, new ToolRunner(Executors.newSingleThreadExecutor(), Duration.ofSeconds(5)),
                ApprovalGate.OPEN);

        FunctionDeclaration declaration = adapter.declaration().orElseThrow();
        assertEquals("echo", declaration.name().orElseThrow());
        assertEquals(echo.parameters(), declaration.parametersJsonSchema().orElseThrow());
        assertEquals(Map.of("echo", "hi"), adapter.runAsync(Map.of("text", "hi"), null).blockingGet());
        assertEquals(Map.of("text", "hi"), received.get());
    }

    @Test
    void aResultThatRefersToASavedArtifactIsRecordedInTheEventsArtifactDelta() {
        Map<String, Object> shot = new java.util.HashMap<>(Map.of("url", "https://example.com"));
        shot.putAll(ToolArtifacts.reference("shot.png", 2, "image/png", 1234));
        ToolAdapter screenshot = new ToolAdapter(tool("screenshot", shot),
                new ToolRunner(Executors.newSingleThreadExecutor(), Duration.ofSeconds(5)), ApprovalGate.OPEN);
        ToolContext context = context();

        assertEquals(shot, screenshot.runAsync(Map.of(), context).blockingGet());
        assertEquals(Map.of("shot.png", 2), context.eventActions().artifactDelta());

        ToolContext plain = context();
        new ToolAdapter(tool("echo", Map.of("ok", true)), new ToolRunner(Executors.newSingleThreadExecutor(), Duration.ofSeconds(5)),
                ApprovalGate.OPEN).runAsync(Map.of(), plain).blockingGet();
        assertEquals(Map.of(), plain.eventActions().artifactDelta());
    }

    private static ToolContext context() {
        Session session = Session.builder("s1").appName("lango").userId("ann").build();
        return ToolContext.builder(InvocationContext.builder().session(session).invocationId("i1")
                .agent(com.google.adk.agents.LlmAgent.builder().name("a").build())
                .sessionService(new com.google.adk.sessions.InMemorySessionService()).build()).build();
    }

    private static Tool tool(String name, Map<String, Object> result) {
        return DeclaredTool.of(ToolFamily.EXEC, name, Safety.SAFE, name, Map.of("type", "object", "properties", Map.of()),
                (args, caller) -> result);
    }
}
