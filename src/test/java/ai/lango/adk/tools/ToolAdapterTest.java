package ai.lango.adk.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.tool.Tool;
import ai.lango.tool.ToolRunner;
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
        Tool echo = new Tool() {
            public String name() { return "echo"; }
            public String description() { return "echoes"; }
            public ai.lango.tool.Safety safety() { return ai.lango.tool.Safety.SAFE; }
            public Map<String, Object> parameters() {
                return Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")), "required", List.of("text"));
            }
            public Map<String, Object> call(Map<String, Object> args) {
                received.set(args);
                return Map.of("echo", args.get("text"));
            }
        };
        ToolAdapter adapter = new ToolAdapter(echo, new ToolRunner(Executors.newSingleThreadExecutor(), Duration.ofSeconds(5)),
                ApprovalGate.OPEN);

        FunctionDeclaration declaration = adapter.declaration().orElseThrow();
        assertEquals("echo", declaration.name().orElseThrow());
        assertEquals(echo.parameters(), declaration.parametersJsonSchema().orElseThrow());
        assertEquals(Map.of("echo", "hi"), adapter.runAsync(Map.of("text", "hi"), null).blockingGet());
        assertEquals(Map.of("text", "hi"), received.get());
    }
}
