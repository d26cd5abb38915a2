package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.TestJson;
import ai.lango.graph.GraphStore;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Hit;
import ai.lango.retrieval.LocalEmbedder;
import ai.lango.retrieval.Retrieval;
import ai.lango.security.Ownership;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retrieval on the real server with the default, local embedding model: a paraphrase that shares
 * no word with what was saved finds it; the vectors are in the database and survive a redeploy
 * (which also proves the native libraries of the model load again in the same JVM), and so do the
 * entry's triples; one stored by
 * another model is embedded again at start; a deleted entry is gone from the results; observations
 * are found only in their own session.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RetrievalIT {

    /** The server JVM outlives the application, so the run's names travel across the redeploy here. */
    private static final String KEY = "lango.it.retrieval.key";
    private static final String STALE_KEY = "lango.it.retrieval.stale";
    private static final String ROW_ID = "lango.it.retrieval.row";
    private static final String STALE_ROW_ID = "lango.it.retrieval.stale-row";
    private static final Duration INDEXED = Duration.ofSeconds(60);

    @Deployment(name = "app", managed = false)
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.restartable("lango-retrieval.war"), "lango.graph.enabled=true\n");
    }

    @ArquillianResource
    Deployer deployer;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    Retrieval retrieval;

    @Inject
    GraphStore graph;

    @Inject
    ai.lango.learning.LearningStore learnings;

    @Inject
    ai.lango.session.SessionStore sessions;

    @Test
    @Order(1)
    @RunAsClient
    void deploy() {
        deployer.deploy("app");
    }

    @Test
    @Order(2)
    @OperateOnDeployment("app")
    void aParaphraseSharingNoWordFindsWhatWasSaved() throws Exception {
        forgetEarlierRuns(knowledge, "The staging database password rotates every Tuesday at 04:00 UTC.",
                "The team orders sushi for lunch on Fridays.");
        String run = UUID.randomUUID().toString().substring(0, 8);
        String key = "staging-rotation-" + run;
        knowledge.save(KnowledgeEntry.of(key, "fact", "The staging database password rotates every Tuesday at 04:00 UTC.",
                List.of(), "test"));
        String stale = "lunch-" + run;
        knowledge.save(KnowledgeEntry.of(stale, "preference", "The team orders sushi for lunch on Fridays.", List.of(), "test"));
        assertTrue(retrieval.awaitIdle(INDEXED), "embedded within " + INDEXED);

        List<Hit> hits = retrieval.search("How often are the credentials of the test environment's data store renewed?", 5,
                List.of(Document.KNOWLEDGE), null);
        assertFalse(hits.isEmpty());
        assertEquals(key, hits.get(0).sourceId(), hits.toString());

        long deadline = System.nanoTime() + INDEXED.toNanos();
        while (graph.query("knowledge:" + key, "contains", "collection:knowledge").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.setProperty(KEY, key);
        System.setProperty(STALE_KEY, stale);
        System.setProperty(ROW_ID, Long.toString(row(key).id()));
        // As if an earlier configuration had embedded this one with another model.
        update("UPDATE lango_embeddings SET model = 'old/model' WHERE collection = 'knowledge' AND source_id = ?", stale);
        System.setProperty(STALE_ROW_ID, Long.toString(row(stale).id()));
    }

    @Test
    @Order(3)
    @RunAsClient
    void redeploy() {
        deployer.undeploy("app");
        deployer.deploy("app");
    }

    @Test
    @Order(4)
    @OperateOnDeployment("app")
    void vectorsSurviveTheRedeployAndAnotherModelsAreEmbeddedAgain() throws Exception {
        assertTrue(retrieval.awaitIdle(INDEXED));
        String key = System.getProperty(KEY);
        Row kept = row(key);
        assertEquals(1, graph.query("knowledge:" + key, "contains", "collection:knowledge").size(), "triples survive too");
        assertEquals(Long.parseLong(System.getProperty(ROW_ID)), kept.id(), "the stored vector was reused, not computed again");
        assertEquals(LocalEmbedder.MODEL, kept.model());
        Row reembedded = row(System.getProperty(STALE_KEY));
        assertEquals(LocalEmbedder.MODEL, reembedded.model());
        assertNotEquals(Long.parseLong(System.getProperty(STALE_ROW_ID)), reembedded.id());

        List<Hit> hits = retrieval.search("When are the staging credentials renewed?", 3, List.of(Document.KNOWLEDGE), null);
        assertEquals(key, hits.get(0).sourceId(), "the model works after the redeploy: " + hits);

        HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + ItPorts.HTTP + "/lango-retrieval/api/admin/retrieval")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, status.statusCode());
        JsonNode body = TestJson.MAPPER.readTree(status.body());
        assertEquals(LocalEmbedder.MODEL, body.path("model").asText());
        assertTrue(body.path("vectors").path("knowledge").asInt() >= 2, status.body());
        assertTrue(body.path("idle").asBoolean(), status.body());
    }

    @Test
    @Order(5)
    @OperateOnDeployment("app")
    void aDeletedEntryIsGoneFromTheResultsAndTheTable() throws Exception {
        String key = System.getProperty(KEY);
        assertTrue(knowledge.delete(KnowledgeEntry.SHARED, key));
        assertTrue(retrieval.search("staging database password rotation", 10, List.of(), null).stream()
                .noneMatch(h -> h.sourceId().equals(key)));
        assertEquals(0, count("SELECT COUNT(*) FROM lango_embeddings WHERE collection = 'knowledge' AND source_id = ?", key));
        long deadline = System.nanoTime() + INDEXED.toNanos();
        while (!graph.query("knowledge:" + key, null, null).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(graph.query("knowledge:" + key, null, null).isEmpty(), "its triples go with it");
        knowledge.delete(KnowledgeEntry.SHARED, System.getProperty(STALE_KEY));
    }

    @Test
    @Order(6)
    @OperateOnDeployment("app")
    void observationsAreFoundOnlyInTheirSessionAndKnowledgeInEvery() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        SessionRef mine = SessionRef.of("retrieval-user", "session-a-" + run);
        String knowledgeKey = "kettle-" + run;
        retrieval.index(new Document(Document.OBSERVATION, "it-" + run, mine.scope(),
                "The user is planning a hiking trip to the Dolomites in September " + run + "."));
        knowledge.save(KnowledgeEntry.of(knowledgeKey, "fact", "Mountain huts in the Dolomites close in late September " + run + ".",
                List.of(), "test"));
        assertTrue(retrieval.awaitIdle(INDEXED));

        String query = "trip to the mountains " + run;
        List<Hit> inMine = retrieval.search(query, 10, List.of(), mine);
        assertTrue(inMine.stream().anyMatch(h -> h.sourceId().equals("it-" + run)), inMine.toString());
        assertTrue(inMine.stream().anyMatch(h -> h.sourceId().equals(knowledgeKey)), inMine.toString());
        List<Hit> inOther = retrieval.search(query, 10, List.of(), SessionRef.of("retrieval-user", "session-b-" + run));
        assertTrue(inOther.stream().noneMatch(h -> h.collection().equals(Document.OBSERVATION) && h.sourceId().equals("it-" + run)),
                inOther.toString());
        List<Hit> sameIdOtherUser = retrieval.search(query, 10, List.of(), SessionRef.of("someone-else", mine.key()));
        assertTrue(sameIdOtherUser.stream().noneMatch(h -> h.collection().equals(Document.OBSERVATION)),
                "session ids are each user's own: " + sameIdOtherUser);
        assertTrue(inOther.stream().anyMatch(h -> h.sourceId().equals(knowledgeKey)), "knowledge belongs to every session: " + inOther);

        retrieval.removeSession(mine);
        assertTrue(retrieval.search(query, 10, List.of(), mine).stream().noneMatch(h -> h.collection().equals(Document.OBSERVATION)));
        knowledge.delete(KnowledgeEntry.SHARED, knowledgeKey);
    }

    @Test
    @Order(6)
    @OperateOnDeployment("app")
    void aDeletedSessionTakesItsMemorysVectorsWithIt() throws Exception {
        String key = "doomed-" + UUID.randomUUID();
        SessionRef doomed = SessionRef.of("retrieval-user", key);
        sessions.create(doomed, java.util.Map.of());
        retrieval.index(new Document(Document.REFLECTION, "it-" + key, doomed.scope(), "The user keeps bees on the roof " + key + "."));
        assertTrue(retrieval.awaitIdle(INDEXED));
        assertEquals(1, retrieval.search("bees " + key, 5, List.of(Document.REFLECTION), doomed).size());
        assertTrue(sessions.delete(doomed));
        assertEquals(List.of(), retrieval.search("bees " + key, 5, List.of(Document.REFLECTION), doomed));
        assertEquals(0, count("SELECT COUNT(*) FROM lango_embeddings WHERE scope = ?", doomed.scope()));
    }

    @Test
    @Order(6)
    @OperateOnDeployment("app")
    void learningsAreFoundByTheirTriggerAndFixAndGoWhenDeleted() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        learnings.saveFix(Ownership.SHARED, "tool:exec", "certificate expired " + run, "Renew the TLS certificate with certbot before retrying " + run,
                null, "tool_error");
        assertTrue(retrieval.awaitIdle(INDEXED));
        List<Hit> hits = retrieval.search("certbot renewal " + run, 3, List.of(Document.LEARNING), null);
        assertFalse(hits.isEmpty());
        long id = Long.parseLong(hits.get(0).sourceId());
        assertTrue(hits.get(0).content().startsWith("tool:exec\nRenew the TLS certificate"), hits.get(0).content());
        assertTrue(learnings.delete(id));
        assertTrue(retrieval.search("certbot renewal " + run, 3, List.of(Document.LEARNING), null).stream()
                .noneMatch(h -> h.sourceId().equals(Long.toString(id))));
    }

    @Test
    @Order(8)
    @RunAsClient
    void undeploy() {
        deployer.undeploy("app");
    }

    /**
     * Deletes what an earlier run that stopped half-way left behind (the database outlives a run):
     * the same text under another key would tie with this run's, and either may come first.
     */
    static void forgetEarlierRuns(KnowledgeStore knowledge, String... contents) {
        List<String> texts = List.of(contents);
        knowledge.all(null, 0, 100_000).stream().filter(e -> texts.contains(e.content())).forEach(e -> knowledge.delete(e.owner(), e.key()));
    }

    private record Row(long id, String model) {
    }

    private static Row row(String key) throws Exception {
        try (Connection c = dataSource().getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT id, model FROM lango_embeddings WHERE collection = 'knowledge' AND source_id = ?")) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                assertTrue(r.next(), "a vector for " + key);
                return new Row(r.getLong(1), r.getString(2));
            }
        }
    }

    private static long count(String sql, String parameter) throws Exception {
        try (Connection c = dataSource().getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static void update(String sql, String parameter) throws Exception {
        try (Connection c = dataSource().getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            assertEquals(1, s.executeUpdate());
        }
    }

    private static DataSource dataSource() throws SQLException {
        try {
            return InitialContext.doLookup("jdbc/lango");
        } catch (javax.naming.NamingException e) {
            throw new SQLException(e);
        }
    }
}
