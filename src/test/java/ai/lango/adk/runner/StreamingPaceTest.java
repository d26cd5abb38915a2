package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.models.ModelAdapter;
import ai.lango.fake.FakeLlmServer.PacedText;
import ai.lango.fake.FakeLlmServer;
import ai.lango.provider.ProviderCatalog;
import ai.lango.provider.ProviderSettings;
import ai.lango.turn.LearnedFixes;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A streamed answer reaches the turn's listener chunk by chunk, at the pace the model writes it,
 * through the whole chain: real provider client, ModelAdapter, ADK's runner, LangoRunner — for
 * each provider's own wire format.
 */
class StreamingPaceTest {

    private static final Duration GAP = Duration.ofMillis(250);
    private static final String[] CHUNKS = {"One ", "two ", "three ", "four."};

    private static PacedText paced(String provider) {
        return switch (provider) {
            case ProviderCatalog.ANTHROPIC -> PacedText.anthropic(GAP, CHUNKS);
            case ProviderCatalog.GEMINI -> PacedText.gemini(GAP, CHUNKS);
            default -> PacedText.openAi(GAP, CHUNKS);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {ProviderCatalog.OPENAI, ProviderCatalog.ANTHROPIC, ProviderCatalog.GEMINI})
    void eachChunkReachesTheListenerBeforeTheModelWritesTheNext(String provider) throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start()) {
            // A first turn loads the classes on the path, so the measured one times streaming alone.
            fake.enqueue(paced(provider));
            PacedText reply = paced(provider);
            fake.enqueue(reply);
            ModelAdapter.Opener direct = ModelAdapter.DIRECT;
            ModelAdapter model = new ModelAdapter("test-model",
                    ProviderCatalog.create(new ProviderSettings(provider, fake.baseUrl(), "key", null, null)), direct);
            LlmAgent agent = LlmAgent.builder().name("lango-agent").model(model).instruction("be brief").build();
            Runner adk = Runner.builder().agent(agent).appName("lango").sessionService(new InMemorySessionService())
                    .artifactService(new InMemoryArtifactService()).build();
            adk.sessionService().createSession("lango", "user", null, "s").blockingGet();
            LangoRunner runner = new LangoRunner(adk, agent, new LangoRunner.Limits(25, false, Duration.ofSeconds(30)),
                    LearnedFixes.NONE);
            runner.runAndCollect("user", "s", "warm up", true, event -> { });
            List<Long> arrivals = new ArrayList<>();

            String answer = runner.runAndCollect("user", "s", "count", true, event -> {
                if (event.partial().orElse(false)) {
                    arrivals.add(System.nanoTime());
                }
            });

            assertEquals(String.join("", CHUNKS), answer);
            List<Long> sent = reply.sentNanos();
            assertEquals(CHUNKS.length, arrivals.size(), "one partial event per chunk");
            for (int i = 0; i < CHUNKS.length; i++) {
                long after = (arrivals.get(i) - sent.get(i)) / 1_000_000;
                assertTrue(after >= 0 && after < GAP.toMillis() / 2,
                        "chunk " + i + " reached the listener " + after + " ms after the model wrote it");
            }
        }
    }
}
