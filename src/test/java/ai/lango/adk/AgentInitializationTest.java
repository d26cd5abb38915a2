package ai.lango.adk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.tool.SafetyLevel;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolRunner;
import com.google.adk.agents.LlmAgent;
import com.google.adk.tools.BaseTool;
import com.google.genai.types.FunctionDeclaration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 000 "Agent Initialization" and "Tool Adapter". */
class AgentInitializationTest {

    @TempDir
    Path dir;

    private LangoSettings settings(Optional<LangoSettings.ModelProvider> provider, Optional<String> model) {
        return new LangoSettings(9080, "localhost", dir, LangoSettings.DbKind.HSQLDB, Optional.empty(), Optional.empty(),
                Optional.empty(), model, 0, Duration.ZERO, provider,
                new LangoSettings.AgentLimits(false, 25, 10, true, Duration.ofMinutes(5)),
                new LangoSettings.ToolSettings(dir.resolve("workspace"), false, Duration.ofSeconds(60)),
                new LangoSettings.Access(Optional.empty(), List.of()));
    }

    private AgentService service(LangoSettings settings) {
        AgentService service = new AgentService();
        service.settings = settings;
        service.sessions = new JpaSessionService(new JpaSessionServiceTest.RecordingStore(), settings);
        service.calls = new ProviderCalls();
        ToolCatalog catalog = new ToolCatalog();
        catalog.settings = settings;
        catalog.executor = null; // tools are adapted, not run, here
        catalog.init();
        service.tools = catalog;
        return service;
    }

    @Test
    void serverStartsWithoutAProviderAndATurnNamesTheKeysToSet() {
        AgentService service = service(settings(Optional.empty(), Optional.empty()));
        service.start(null);

        assertTrue(service.rootAgent().isEmpty());
        LangoRunner.TurnException error = assertThrows(LangoRunner.TurnException.class,
                () -> service.chat("user", "s", "hello", false, e -> { }));
        assertEquals("no model provider is configured: set lango.provider (openai, anthropic, gemini, ollama), "
                + "lango.model and lango.providers.<id>.api-key", error.getMessage());
    }

    @Test
    void agentIsBuiltWithTheConfiguredModelAndTools() {
        AgentService service = service(settings(Optional.of(new LangoSettings.ModelProvider("openai",
                Optional.of("http://127.0.0.1:1/v1"), Optional.of("sk-x"))), Optional.of("gpt-4o-mini")));
        service.start(null);

        LlmAgent agent = (LlmAgent) service.rootAgent().orElseThrow();
        assertEquals("lango-agent", agent.name());
        assertEquals("Lango Assistant", agent.description());
        assertEquals("gpt-4o-mini", agent.resolvedModel().model().orElseThrow().model());
        assertEquals("openai", ((ModelAdapter) agent.resolvedModel().model().orElseThrow()).providerId());
        assertEquals(List.of("fs_read", "fs_list", "fs_write", "fs_edit", "fs_mkdir", "fs_delete"),
                agent.tools().blockingGet().stream().map(BaseTool::name).toList());
    }

    @Test
    void toolAdapterTranslatesTheCallToTheInternalTool() {
        AtomicReference<Map<String, Object>> received = new AtomicReference<>();
        Tool echo = new Tool() {
            public String name() { return "echo"; }
            public String description() { return "echoes"; }
            public Map<String, Object> parameters() {
                return Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")), "required", List.of("text"));
            }
            public SafetyLevel safety() { return SafetyLevel.SAFE; }
            public Map<String, Object> call(Map<String, Object> args) {
                received.set(args);
                return Map.of("echo", args.get("text"));
            }
        };
        ToolAdapter adapter = new ToolAdapter(echo, new ToolRunner(Executors.newSingleThreadExecutor(), Duration.ofSeconds(5)));

        FunctionDeclaration declaration = adapter.declaration().orElseThrow();
        assertEquals("echo", declaration.name().orElseThrow());
        assertEquals(echo.parameters(), declaration.parametersJsonSchema().orElseThrow());
        assertEquals(Map.of("echo", "hi"), adapter.runAsync(Map.of("text", "hi"), null).blockingGet());
        assertEquals(Map.of("text", "hi"), received.get());
    }

}
