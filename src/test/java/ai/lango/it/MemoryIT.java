package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turns.Turns;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import ai.lango.memory.MemoryStore;
import ai.lango.memory.Observation;
import ai.lango.memory.Reflection;
import ai.lango.session.SessionStore;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Observational memory on the real server, in multi-agent mode, with the fake model answering the
 * observer and the reflector by what they ask (they run after the turn, in no order a queue could
 * script). Thresholds are small so a few turns reach them: an observation per user message, a
 * reflection per two observations, a consolidation per two reflections.
 */
@ExtendWith(ArquillianExtension.class)
class MemoryIT extends FakeLlmIT {

    static final String OBSERVER_ASKS = "compress the following conversation messages";
    static final String REFLECTOR_ASKS = "condense these observation notes";
    static final String CONSOLIDATION_ASKS = "(gen 1):";
    static final String OBSERVED = "OBSERVED: the user is planning a trip to Lisbon in May and prefers trains to planes.";
    static final String REFLECTED = "REFLECTED: the user plans a May trip to Lisbon by train and wants cheap lodging.";
    static final String CONSOLIDATED = "CONSOLIDATED: Lisbon in May, by train, cheap lodging, vegetarian food wanted.";
    /** 240 characters: about 60 tokens, over the observation threshold alone. */
    static final String LONG_MESSAGE = "I am planning a trip. ".repeat(11) + "Help?";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-memory.war"),
                """
                lango.agent.multi-agent=true
                lango.memory.enabled=true
                lango.memory.observation-threshold=40
                lango.memory.reflection-threshold=30
                lango.memory.meta-reflection-threshold=2
                lango.memory.token-budget=4000
                """);
    }

    @Inject
    Turns turns;

    @Inject
    MemoryStore memory;

    @Inject
    SessionStore sessions;

    @BeforeEach
    void memoryModelAnswersByWhatItIsAsked() {
        fake.route(FakeLlmServer.bodyContains(CONSOLIDATION_ASKS), r -> Reply.openAiText(CONSOLIDATED))
                .route(FakeLlmServer.bodyContains(REFLECTOR_ASKS), r -> Reply.openAiText(REFLECTED))
                .route(FakeLlmServer.bodyContains(OBSERVER_ASKS), r -> Reply.openAiText(OBSERVED));
    }

    private static SessionRef mine(String key) {
        return SessionRef.of(Names.DEFAULT_USER, key);
    }

    private String chat(String key, String text, String answer) {
        fake.enqueue(Reply.openAiText(answer));
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(50);
        }
    }

    /** Nothing left over a threshold: the observer, the reflector and consolidation are done. */
    private boolean settled(String key) {
        MemoryStore.Status status = memory.status(mine(key)).orElseThrow();
        return status.unobservedTokens() < 40 && status.observationTokens() < 30
                && memory.active(mine(key)).reflections().size() < 2;
    }

    private List<FakeLlmServer.Recorded> agentRequests() {
        return fake.requests().stream().filter(r -> !r.body().contains("conversation memory assistant")).toList();
    }

    private static String systemPrompt(FakeLlmServer.Recorded request) {
        return request.json().path("messages").get(0).path("content").asText();
    }

    @Test
    void afterEnoughTokensAnObservationExistsAndTheNextRequestCarriesItInTheMemorySection() throws Exception {
        String key = "memory-" + UUID.randomUUID();
        assertEquals("Sure.", chat(key, LONG_MESSAGE, "Sure."));
        eventually("an observation", () -> !memory.active(mine(key)).observations().isEmpty());

        Observation observation = memory.active(mine(key)).observations().get(0);
        assertEquals(OBSERVED, observation.content());
        FakeLlmServer.Recorded observerCall = fake.requests().stream()
                .filter(r -> r.body().contains(OBSERVER_ASKS)).findFirst().orElseThrow();
        assertTrue(observerCall.body().contains("[user]: I am planning a trip."), observerCall.body());

        chat(key, "What did I say?", "A trip.");
        List<FakeLlmServer.Recorded> turns = agentRequests();
        String prompt = systemPrompt(turns.get(turns.size() - 1));
        assertTrue(prompt.contains("## Conversation Memory\n"), prompt);
        assertTrue(prompt.contains("### Recent Observations\n\n[observation "), prompt);
        assertTrue(prompt.contains("]\n> " + OBSERVED + "\n"), prompt);
        assertFalse(prompt.contains("### Summary"), "no empty header: " + prompt);
    }

    @Test
    void reflectionsFoldObservationsAndConsolidationFoldsReflectionsKeepingEverythingStored() throws Exception {
        String key = "memory-" + UUID.randomUUID();
        for (int i = 0; i < 4; i++) {
            chat(key, LONG_MESSAGE + " " + i, "Answer " + i + ".");
            eventually("memory caught up with turn " + i, () -> settled(key));
        }
        eventually("a consolidated reflection", () -> memory.active(mine(key)).reflections().stream()
                .anyMatch(r -> r.generation() == 2));

        MemoryStore.Contents all = memory.all(mine(key));
        Reflection consolidated = all.reflections().stream().filter(r -> r.generation() == 2).findFirst().orElseThrow();
        assertEquals(CONSOLIDATED, consolidated.content());
        List<Reflection> firstGeneration = all.reflections().stream().filter(r -> r.generation() == 1).toList();
        assertEquals(2, firstGeneration.size(), "both reflections stay stored");
        firstGeneration.forEach(r -> assertEquals(consolidated.id(), r.foldedInto()));
        assertTrue(all.observations().size() >= 4, "every observation stays stored: " + all.observations());
        assertTrue(all.observations().stream().limit(4).allMatch(o -> o.foldedInto() != null));
        assertEquals(8, sessions.messages(mine(key)).size(), "memory never deletes a chat message");

        MemoryStore.Contents offered = memory.active(mine(key));
        assertEquals(List.of(consolidated), offered.reflections());

        chat(key, "Where am I going?", "Lisbon.");
        List<FakeLlmServer.Recorded> turns = agentRequests();
        String prompt = systemPrompt(turns.get(turns.size() - 1));
        assertTrue(prompt.contains("### Summary\n\n[reflection "), prompt);
        assertTrue(prompt.contains("]\n> " + CONSOLIDATED + "\n"), prompt);
        assertFalse(prompt.contains(REFLECTED), "folded reflections are no longer offered: " + prompt);
    }

    @Test
    void aFailingObserverLeavesTheTurnIntactAndIsRetriedAfterTheNextTurn() throws Exception {
        fake.reset();
        fake.route(FakeLlmServer.bodyContains(OBSERVER_ASKS),
                r -> Reply.status(500, "{\"error\":{\"message\":\"observer down\"}}"));
        String key = "memory-" + UUID.randomUUID();
        assertEquals("Still here.", chat(key, LONG_MESSAGE, "Still here."));
        eventually("the observer was asked", () -> fake.requests().stream().anyMatch(r -> r.body().contains(OBSERVER_ASKS)));
        Thread.sleep(300);
        assertTrue(memory.active(mine(key)).observations().isEmpty());
        assertEquals(2, sessions.messages(mine(key)).size());

        fake.reset();
        memoryModelAnswersByWhatItIsAsked();
        assertEquals("Back.", chat(key, "Again.", "Back."));
        eventually("the observation on the next trigger", () -> !memory.active(mine(key)).observations().isEmpty());
    }

    @Test
    void multiAgentModeHasTheMemoryManagerWithBothTools() {
        AgentInfo root = turns.agents().orElseThrow();
        AgentInfo manager = root.subAgents().stream().filter(a -> a.name().equals("memory-manager")).findFirst()
                .orElseThrow(() -> new AssertionError("no memory-manager in " + root));
        assertEquals(List.of("loadMemory", "memory_list_observations", "memory_list_reflections"),
                manager.tools().stream().sorted().toList());
    }

    @Test
    void aNewSessionOfTheSameUserRecallsAnEarlierOneThroughAdksLoadMemoryTool() throws Exception {
        String earlier = "memory-" + UUID.randomUUID();
        chat(earlier, LONG_MESSAGE, "Noted.");
        eventually("an observation", () -> !memory.active(mine(earlier)).observations().isEmpty());

        String later = "memory-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiToolCall("call_t1", "transfer_to_agent", "{\"agent_name\":\"memory-manager\"}"))
                .enqueue(Reply.openAiToolCall("call_m1", "loadMemory", "{\"query\":\"Lisbon trip\"}"));
        assertEquals("You plan Lisbon.", chat(later, "Where was I travelling?", "You plan Lisbon."));

        List<FakeLlmServer.Recorded> turns = agentRequests();
        String toolResult = turns.get(turns.size() - 1).json().path("messages").toString();
        assertTrue(toolResult.contains("call_m1") && toolResult.contains(OBSERVED), toolResult);
    }

    @Test
    void theAdminApiShowsMemoryAndDeleteClearsItButNotTheMessages() throws Exception {
        String key = "memory-" + UUID.randomUUID();
        chat(key, LONG_MESSAGE, "Noted.");
        eventually("an observation", () -> !memory.active(mine(key)).observations().isEmpty());
        HttpClient http = HttpClient.newHttpClient();
        URI uri = URI.create("http://localhost:" + ItPorts.HTTP + "/lango-memory/api/admin/memory/" + key);

        HttpResponse<String> shown = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, shown.statusCode(), shown.body());
        JsonNode body = TestJson.MAPPER.readTree(shown.body());
        assertEquals(OBSERVED, body.path("observations").get(0).path("content").asText());
        assertTrue(body.path("status").path("enabled").asBoolean());
        assertTrue(body.path("status").path("observationTokens").asInt() > 0);
        assertTrue(body.path("status").has("unobservedTokens"));

        HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(uri).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, deleted.statusCode());
        assertTrue(memory.all(mine(key)).observations().isEmpty());
        assertEquals(2, sessions.messages(mine(key)).size());

        HttpResponse<String> unknown = http.send(HttpRequest.newBuilder(URI.create(uri + "-none")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, unknown.statusCode());
    }
}
