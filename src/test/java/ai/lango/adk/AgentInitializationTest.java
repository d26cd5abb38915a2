package ai.lango.adk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.models.ProviderCalls;
import ai.lango.adk.runner.RunnerFixtures;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.sessions.JpaSessionServiceTest;
import ai.lango.adk.tools.ToolCatalogs;
import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.prompt.ContextSections;
import ai.lango.session.SessionLeases;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.Recall;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building the agent tree from the settings, and its tools. */
class AgentInitializationTest {

    @TempDir
    Path dir;

    private LangoSettings settings(String... keysAndValues) {
        return TestSettings.of(dir, keysAndValues);
    }

    private TestEngine service(LangoSettings settings) {
        return new TestEngine(settings, new JpaSessionServiceTest.RecordingStore(), null);
    }

    @Test
    void serverStartsWithoutAProviderAndATurnNamesTheKeysToSet() {
        TestEngine service = service(settings());
        service.start();

        assertTrue(service.agents.agents().isEmpty());
        TurnFailedException error = assertThrows(TurnFailedException.class,
                () -> service.engine.await(service.chat("user", true, "s", "hello", false)));
        assertEquals("no model provider is configured: set LANGO_PROVIDER (openai, anthropic, gemini, ollama), LANGO_MODEL and,"
                + " for a hosted provider, LANGO_PROVIDERS_<ID>_API_KEY (lango.provider, lango.model, lango.providers.<id>.api-key),"
                + " then start the server again", error.getMessage());
    }

    @Test
    void agentIsBuiltWithTheConfiguredModelAndTools() {
        TestEngine service = service(settings("lango.provider", "openai", "lango.providers.openai.base-url",
                "http://127.0.0.1:1/v1", "lango.providers.openai.api-key", "sk-x", "lango.model", "gpt-4o-mini"));
        service.start();

        AgentInfo agent = service.agents.agents().orElseThrow();
        assertEquals("lango-agent", agent.name());
        assertEquals("Lango Assistant", agent.description());
        assertEquals(List.of("fs_read", "fs_list", "fs_write", "fs_edit", "fs_mkdir", "fs_delete"), agent.tools());
        assertTrue(agent.subAgents().isEmpty());
    }


}
