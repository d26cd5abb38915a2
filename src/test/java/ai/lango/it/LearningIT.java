package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turns.Turns;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import ai.lango.learning.ErrorPatterns;
import ai.lango.learning.Learning;
import ai.lango.learning.LearningStore;
import ai.lango.security.Ownership;
import ai.lango.turn.Names;
import ai.lango.turn.TurnFailedException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Knowledge and learning on the real server with the fake model calling the tools: saved knowledge
 * reaches the next turn's prompt, a failing tool call becomes a learning, and a saved fix confirmed
 * past 0.7 makes a failed run retry once with it.
 */
@ExtendWith(ArquillianExtension.class)
@ItClassOrder.OnTheDefaultDeployment
class LearningIT extends FakeLlmIT {

    static final String FIX_ASKS = "Suggested fix: ";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @Inject
    Turns turns;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    LearningStore learnings;

    private String chat(String key, String text) {
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

    private static String systemPrompt(FakeLlmServer.Recorded request) {
        return request.json().path("messages").get(0).path("content").asText();
    }

    /** The learning of every owner's, however many the database keeps from earlier runs. */
    private Optional<Learning> learning(String trigger, String pattern) {
        for (int offset = 0; ; offset += 1000) {
            List<Learning> page = learnings.all(null, offset, 1000);
            Optional<Learning> found = page.stream().filter(l -> l.trigger().equals(trigger) && l.errorPattern().contains(pattern)).findFirst();
            if (found.isPresent() || page.size() < 1000) {
                return found;
            }
        }
    }

    @Test
    void anErrorsLearningIsFoundHoweverManyMoreConfidentLearningsThereAre() {
        // One user's learnings of this run only: more fixes saved (confidence 0.6) than a lookup returns
        // (200), none of them for this error, and then the error itself observed (0.5), the least confident.
        String owner = "crowd-" + UUID.randomUUID();
        String marker = UUID.randomUUID().toString().replace("-", "");
        try {
            for (int i = 0; i < 210; i++) {
                learnings.saveFix(owner, "tool:fs_list", "qa" + marker.substring(0, 8) + " qb" + i, "Ask again", "", "tool_error");
            }
            String error = ErrorPatterns.pattern("quota qc" + marker.substring(8, 16) + " exceeded for qd" + marker.substring(16, 24));
            learnings.occurred(owner, "tool:fs_read", error, error, "tool_error");

            List<Learning> matches = learnings.matchingError(error, 0.0, false, List.of(owner));
            assertEquals(1, matches.size(), matches.toString());
            assertEquals("tool:fs_read", matches.get(0).trigger());
            assertEquals(0.5, matches.get(0).confidence(), 1e-9);
        } finally {
            learnings.all(List.of(owner), 0, 1000).forEach(l -> learnings.delete(l.id()));
        }
    }

    @Test
    void savedKnowledgeIsInTheNextTurnsSystemPrompt() throws Exception {
        // Earlier runs saved the same text under other keys (the PostgreSQL database outlives a run): equally relevant, any could come first.
        RetrievalIT.forgetEarlierRuns(knowledge, "Deploy only from the release branch");
        String key = "know-" + UUID.randomUUID();
        String entry = "deploy-" + UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall("call_k1", "save_knowledge", "{\"key\":\"" + entry + "\",\"category\":\"rule\","
                        + "\"content\":\"Deploy only from the release branch\",\"tags\":[\"deploy\"],\"source\":\"user\"}"))
                .enqueue(Reply.openAiText("Noted."));
        assertEquals("Noted.", chat(key, "Remember: deploy only from the release branch."));
        JsonNode saved = fake.last().json().path("messages");
        assertTrue(saved.toString().contains("\\\"status\\\":\\\"saved\\\""), saved.toString());
        assertEquals("Deploy only from the release branch", knowledge.get(KnowledgeEntry.SHARED, entry).orElseThrow().content());

        fake.enqueue(Reply.openAiText("From release."));
        chat(key, "Which branch do I deploy from?");
        String prompt = systemPrompt(fake.last());
        assertTrue(prompt.contains("## User Knowledge\n\n[shared knowledge \"" + entry + "\" (rule), saved with save_knowledge"), prompt);
        assertTrue(prompt.contains("]\n> Deploy only from the release branch\n"), prompt);

        fake.enqueue(Reply.openAiToolCall("call_k2", "search_knowledge", "{\"query\":\"release branch\"}"))
                .enqueue(Reply.openAiText("Found it."));
        chat(key, "Look it up.");
        String toolResult = fake.last().json().path("messages").toString();
        assertTrue(toolResult.contains("\\\"Key\\\":\\\"" + entry + "\\\""), toolResult);
    }

    @Test
    void aFailingToolCallIsRecordedAsALearningTheAdminApiShows() throws Exception {
        // Not a UUID: error patterns drop UUIDs.
        String missing = "missing-" + UUID.randomUUID().toString().substring(0, 8) + ".txt";
        // A confident learning of an earlier run (the PostgreSQL database keeps them) for the same kind of
        // error covers this one by its words ("file", "missing", "txt", "exist"), and a covered error is
        // not recorded again: forget those first.
        String error = ErrorPatterns.pattern("file \"" + missing + "\" does not exist");
        learnings.matchingError(error, 0.0, false, List.of(Ownership.SHARED)).forEach(covering -> learnings.delete(covering.id()));
        fake.enqueue(Reply.openAiToolCall("call_r1", "fs_read", "{\"path\":\"" + missing + "\"}"))
                .enqueue(Reply.openAiText("It is not there."));
        chat("learn-" + UUID.randomUUID(), "Read " + missing);
        eventually("a learning for the failed fs_read", () -> learning("tool:fs_read", missing).isPresent());
        Learning recorded = learning("tool:fs_read", missing).orElseThrow();
        assertEquals("", recorded.fix());
        assertEquals(0.5, recorded.confidence(), 1e-9);

        // The listing is paged, most confident first, and the PostgreSQL database keeps earlier runs' learnings,
        // many more confident than this new one: follow the pages until it shows up or they end.
        HttpClient http = HttpClient.newHttpClient();
        boolean listed = false;
        boolean more = true;
        for (int offset = 0; more && !listed; offset += 200) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + ItPorts.HTTP
                    + "/lango-it/api/admin/learnings?limit=200&offset=" + offset)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            JsonNode body = TestJson.MAPPER.readTree(page.body());
            listed = body.path("learnings").toString().contains(missing);
            more = body.path("more").asBoolean();
        }
        assertTrue(listed, "the admin API's pages never listed the learning for " + missing);
    }

    @Test
    void aSavedFixConfirmedPastTheThresholdMakesAFailedRunRetryOnceWithIt() throws Exception {
        String key = "fix-" + UUID.randomUUID();
        // Words of this run only: learnings of earlier runs stay in the server's database, and one
        // sharing half of its pattern's words (a fixed "budget overrun", say) would match and be applied.
        String marker = UUID.randomUUID().toString().replace("-", "");
        String pattern = "zq" + marker.substring(0, 8) + " zr" + marker.substring(8, 16) + " zs" + marker.substring(16, 24);
        fake.enqueue(Reply.openAiToolCall("call_s1", "save_learning", "{\"trigger\":\"tool:fs_list\","
                        + "\"fix\":\"Ask for a shorter answer\",\"error_pattern\":\"" + pattern + "\",\"category\":\"provider_error\"}"))
                .enqueue(Reply.openAiText("Saved."));
        chat(key, "Remember that fix.");
        Learning saved = learning("tool:fs_list", marker.substring(0, 8)).orElseThrow();
        assertEquals(0.6, saved.confidence(), 1e-9);

        // The same failure before confirmation: no retry.
        fake.enqueue(Reply.status(400, "{\"error\":{\"message\":\"" + pattern + "\"}}"));
        assertThrows(TurnFailedException.class, () -> chat(key, "Go on."));
        assertTrue(fake.requests().stream().noneMatch(r -> r.body().contains(FIX_ASKS)), "below 0.7 nothing is applied");

        for (int i = 0; i < 2; i++) {
            fake.enqueue(Reply.openAiToolCall("call_l" + i, "fs_list", "{\"path\":\".\"}")).enqueue(Reply.openAiText("Listed."));
            chat(key, "List the workspace.");
        }
        eventually("two confirmations", () -> learnings.get(saved.id()).orElseThrow().confidence() > 0.7);

        fake.reset();
        fake.enqueue(Reply.status(400, "{\"error\":{\"message\":\"" + pattern + "\"}}"))
                .enqueue(Reply.openAiText("Shorter answer."));
        assertEquals("Shorter answer.", chat(key, "Tell me everything."));
        List<FakeLlmServer.Recorded> retries = fake.requests().stream().filter(r -> r.body().contains(FIX_ASKS)).toList();
        assertEquals(1, retries.size(), "exactly one retry with the fix");
        assertTrue(retries.get(0).body().contains("Previous action failed with: ")
                && retries.get(0).body().contains(FIX_ASKS + "Ask for a shorter answer. Please retry.]"), retries.get(0).body());
        assertEquals(3, learnings.get(saved.id()).orElseThrow().successes(),
                "two confirmations, and the retry that worked");

        fake.reset();
        fake.enqueue(Reply.status(400, "{\"error\":{\"message\":\"" + pattern + "\"}}"))
                .enqueue(Reply.status(400, "{\"error\":{\"message\":\"" + pattern + "\"}}"));
        assertThrows(TurnFailedException.class, () -> chat(key, "Again."));
        assertEquals(2, fake.requests().size(), "a fix that fails again is not retried twice");
        assertEquals(1, learnings.get(saved.id()).orElseThrow().failures(), "and it loses confidence");
    }

    @Test
    void eachToolWorksOverApiRunAndTheWebSocket() throws Exception {
        String marker = "m" + UUID.randomUUID().toString().substring(0, 8);
        String base = "http://localhost:" + ItPorts.HTTP + "/lango-it/";
        String session = "tools-" + marker;
        HttpClient http = HttpClient.newHttpClient();
        fake.enqueue(Reply.openAiToolCall("call_a1", "save_knowledge", "{\"key\":\"" + marker + "\",\"category\":\"fact\","
                        + "\"content\":\"The build server is " + marker + "\"}"))
                .enqueue(Reply.openAiToolCall("call_a2", "save_learning", "{\"trigger\":\"tool:exec\",\"fix\":\"Use "
                        + marker + "\",\"error_pattern\":\"" + marker + " unreachable\"}"))
                .enqueue(Reply.openAiText("Both saved."));
        HttpResponse<String> run = http.send(HttpRequest.newBuilder(URI.create(base + "api/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"appName\":\"lango\",\"userId\":\"user\",\"sessionId\":\""
                        + session + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"save both\"}]}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, run.statusCode(), run.body());
        assertTrue(run.body().contains("Knowledge saved: " + marker) && run.body().contains("Learning saved: tool:exec"),
                run.body());

        try (ItSocket socket = ItSocket.connect(new java.net.URL(base))) {
            for (String[] call : new String[][] {
                    {"search_knowledge", "{\"query\":\"" + marker + "\"}", "\"Key\":\"" + marker + "\""},
                    {"search_learnings", "{\"query\":\"" + marker + "\"}", "\"Trigger\":\"tool:exec\""},
                    {"learning_stats", "{}", "\"withFix\":"}}) {
                fake.enqueue(Reply.openAiToolCall("call_" + call[0], call[0], call[1])).enqueue(Reply.openAiText("Done."));
                socket.send(ItSocket.chat(call[0], session, "use " + call[0]));
                List<JsonNode> results = ItSocket.events(socket.untilResponse(), "agent.tool_result");
                assertEquals(1, results.size(), call[0]);
                assertTrue(results.get(0).path("result").toString().contains(call[2]), results.get(0).toString());
            }
        }
    }
}
