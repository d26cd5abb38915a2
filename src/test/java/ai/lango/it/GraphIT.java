package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turns.Turns;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import ai.lango.graph.GraphStore;
import ai.lango.graph.Triple;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import ai.lango.memory.MemoryCleared;
import ai.lango.memory.ObservationSaved;
import ai.lango.memory.ReflectionSaved;
import ai.lango.retrieval.Retrieval;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The knowledge graph on the real server (lango.graph.enabled): knowledge saved by the agent's tool
 * call is turned into triples by the model (the fake answers the extraction), which graph_query,
 * graph_traverse, the admin API and Graph RAG return; deleting the knowledge deletes them; memory
 * links follow observations and reflections and go with the session's memory.
 */
@ExtendWith(ArquillianExtension.class)
class GraphIT extends FakeLlmIT {

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-graph.war"), "lango.graph.enabled=true\n");
    }

    @Inject
    Turns turns;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    GraphStore graph;

    @Inject
    Retrieval retrieval;

    @Inject
    Event<ObservationSaved> observationSaved;

    @Inject
    Event<ReflectionSaved> reflectionSaved;

    @Inject
    Event<MemoryCleared> memoryCleared;

    private String chat(String key, String text) {
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(50);
        }
    }

    private static String lastToolResult(FakeLlmServer fake) {
        JsonNode messages = fake.last().json().path("messages");
        return messages.get(messages.size() - 1).path("content").asText();
    }

    @Test
    void savedKnowledgeBecomesTriplesThatTheToolsTheAdminApiAndGraphRagReturnUntilItIsDeleted() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String service = "checkout service " + run;
        String cause = "connection pool exhaustion " + run;
        String fix = "a larger pool " + run;
        String key = "incident-" + run;
        fake.route(FakeLlmServer.bodyContains("SUBJECT|PREDICATE|OBJECT"), request -> Reply.openAiText(
                service + "|caused_by|" + cause + "\n" + cause + "|resolved_by|" + fix + "\nnot a triple\n" + service + "|loves|Java"));
        fake.enqueue(Reply.openAiToolCall("call_s", "save_knowledge", "{\"key\":\"" + key + "\",\"category\":\"fact\",\"content\":"
                        + "\"The checkout service " + run + " went down because its connection pool ran dry; a larger pool fixed it.\"}"))
                .enqueue(Reply.openAiText("Saved."));
        assertEquals("Saved.", chat("graph-" + run, "Remember the checkout incident."));
        eventually("extracted triples", () -> !graph.query(service, null, null).isEmpty());
        eventually("the entry's links", () -> graph.query("knowledge:" + key, null, null).size() >= 4);

        List<Triple> about = graph.query(service, null, null);
        assertEquals(List.of(Triple.of(service, "caused_by", cause)), about.stream()
                .map(t -> Triple.of(t.subject(), t.predicate(), t.object())).toList(), "bad lines ignored: " + about);
        assertEquals("knowledge:" + key, about.get(0).metadata().get("source"));
        assertTrue(graph.query("knowledge:" + key, "contains", "collection:knowledge").size() == 1);

        fake.enqueue(Reply.openAiToolCall("call_q", "graph_query", "{\"object\":\"" + cause + "\"}"))
                .enqueue(Reply.openAiText("Found."));
        chat("graph-" + run, "What caused it?");
        JsonNode queried = TestJson.MAPPER.readTree(lastToolResult(fake));
        assertTrue(queried.toString().contains("\"subject\":\"" + service + "\",\"predicate\":\"caused_by\""), queried.toString());

        fake.enqueue(Reply.openAiToolCall("call_t", "graph_traverse", "{\"start_node\":\"" + service + "\",\"max_depth\":2,"
                        + "\"predicates\":[\"caused_by\",\"resolved_by\"]}"))
                .enqueue(Reply.openAiText("Walked."));
        chat("graph-" + run, "And how was it fixed?");
        JsonNode walked = TestJson.MAPPER.readTree(lastToolResult(fake));
        assertEquals(2, walked.path("count").asInt(), walked.toString());
        assertTrue(walked.toString().contains("\"object\":\"" + fix + "\""), walked.toString());

        fake.enqueue(Reply.openAiToolCall("call_b", "graph_query", "{\"predicate\":\"related_to\"}"))
                .enqueue(Reply.openAiText("Sorry."));
        chat("graph-" + run, "Everything related?");
        assertTrue(lastToolResult(fake).contains("subject") && lastToolResult(fake).contains("object"), lastToolResult(fake));

        HttpResponse<String> listed = get("/api/admin/graph?subject=" + URLEncoder.encode(service, StandardCharsets.UTF_8));
        assertEquals(200, listed.statusCode());
        assertEquals(1, TestJson.MAPPER.readTree(listed.body()).path("count").asInt(), listed.body());
        HttpResponse<String> stats = get("/api/admin/graph/stats");
        JsonNode counts = TestJson.MAPPER.readTree(stats.body());
        assertTrue(counts.path("triples").asLong() >= 6 && counts.path("predicates").path("resolved_by").asLong() >= 1, stats.body());

        assertTrue(retrieval.awaitIdle(Duration.ofSeconds(60)));
        fake.enqueue(Reply.openAiText("Because of the pool."));
        chat("graph-" + run, "Why did the checkout service " + run + " go down?");
        String prompt = fake.last().json().path("messages").get(0).path("content").asText();
        assertTrue(prompt.contains("## Graph-Expanded Context\n"), prompt);
        assertTrue(prompt.contains("[knowledge graph node, reached via related_to from knowledge:" + key + "]\n> " + service + "\n"),
                prompt);
        assertTrue(prompt.contains("]\n> " + fix + "\n"), prompt);

        knowledge.delete(KnowledgeEntry.SHARED, key);
        eventually("triples deleted with the knowledge", () -> graph.query(service, null, null).isEmpty()
                && graph.query("knowledge:" + key, null, null).isEmpty());
    }

    @Test
    void memoryLinksFollowObservationsAndReflectionsAndGoWithTheSessionsMemory() throws Exception {
        SessionRef session = SessionRef.of("graph-it", "graph-memory-" + UUID.randomUUID());
        long base = 9_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
        observationSaved.fire(new ObservationSaved(base, session, null, "The user plans a trip."));
        observationSaved.fire(new ObservationSaved(base + 1, session, base, "The user booked a hotel."));
        reflectionSaved.fire(new ReflectionSaved(base + 2, session, List.of(base, base + 1), List.of(), "Travel plans."));
        eventually("memory links", () -> graph.query("reflection:" + (base + 2), "reflects_on", null).size() == 2);
        assertEquals(List.of("observation:" + base), graph.query("observation:" + (base + 1), "follows", null).stream()
                .map(Triple::object).toList());
        assertEquals(3, graph.query(null, "in_session", "session:" + session.scope()).size());

        memoryCleared.fire(new MemoryCleared(session));
        eventually("links gone with the memory", () -> graph.query(null, "in_session", "session:" + session.scope()).isEmpty()
                && graph.query("reflection:" + (base + 2), null, null).isEmpty());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + ItPorts.HTTP + "/lango-graph" + path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
