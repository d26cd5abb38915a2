package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import ai.lango.session.EmbeddedEngine;
import ai.lango.session.LocalTransactions;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.session.StateDelta;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * "A crash of the server process loses at most the turn in flight, never anything acknowledged"
 * (docs/operations.md, "Durability"), tried for real: turns over /api/run and /ws on a Liberty server of its own, whose
 * JVM is killed with SIGKILL at varied moments — right after an acknowledged turn, in the middle of
 * a long streamed answer, during a tool call, right after a long streamed answer was acknowledged —
 * then restarted. After each restart every acknowledged event of every session so far must be
 * there, no stored turn may be torn, and the crashed session must take its next turn. Per database,
 * the it.crash.cycles cycles are split over two classes run at once, each on a server of its own
 * (CrashHsqldbIT and CrashHsqldb2IT, CrashPostgresqlIT and CrashPostgresql2IT), beside the other tests.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CrashIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private static final String USER = "user";
    private static final int CYCLES = Integer.getInteger("it.crash.cycles", 20);
    /** Chunks of the long streamed answers. */
    private static final int LONG_ANSWER_CHUNKS = 300;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ItDatabase database;
    private FakeLlmServer fake;
    private LibertyServer server;

    /** What the server acknowledged, per session: what must be found after any later crash. */
    private final Map<String, Acknowledged> acknowledgedSessions = new LinkedHashMap<>();

    /** Which half of the cycles this class runs (0 or 1): the halves run at once, each on a server of its own. */
    private final int half;

    CrashIT(ItDatabase database, int half) {
        this.database = database;
        this.half = half;
    }

    private static final class Acknowledged {
        final Set<String> eventIds = new HashSet<>();
        final List<String> userTexts = new ArrayList<>();
        final Map<String, JsonNode> calls = new HashMap<>();
        final Set<String> results = new HashSet<>();
        final List<String> answers = new ArrayList<>();
        /** A turn killed mid-stream may store its answer only whole: these are the answers allowed. */
        final Set<String> wholeAnswers = new HashSet<>();
    }

    private Path dataDir() {
        return Path.of("target", database.name("it-data-crash-" + half)).toAbsolutePath();
    }

    @BeforeAll
    void startServer() throws Exception {
        database.assumeAvailable();
        int port = ItPorts.HTTP + 10 + database.offset() + 4 * half;
        int fakePort = ItPorts.FAKE_LLM + 1 + 4 * database.offset() + 20 * half;
        deleteRecursively(dataDir());
        if (!database.postgresql() && half == 0) {
            earlierVersionLeftAnH2Database(dataDir().resolve("db"));
        }
        fake = FakeLlmServer.start(fakePort);
        Map<String, String> environment = database.environment(dataDir(), port, "crash" + half);
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_TOOLS_EXEC_ENABLED", "true");
        // The cycles kill the server while a command runs: it runs without waiting for a person.
        environment.put("LANGO_SECURITY_APPROVAL_POLICY", "none");
        environment.put("LANGO_A2A_ENABLED", "false");
        server = LibertyServer.copyOf(database.server("crash-" + half), port,
                environment);
        server.start();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    /** The H2 database an earlier version kept, with one conversation, where this version looks for it. */
    private static void earlierVersionLeftAnH2Database(Path db) throws Exception {
        try (LocalTransactions h2 = new LocalTransactions(db, EmbeddedEngine.H2, true)) {
            SessionStore store = h2.store(null);
            store.getOrCreate(SessionRef.of(USER, IMPORTED));
            Instant t = Instant.ofEpochMilli(1_700_000_000_000L);
            store.append(SessionRef.of(USER, IMPORTED), new Message("user", "from the H2 days", t, "user", List.of(), null), StateDelta.NONE, t);
            store.append(SessionRef.of(USER, IMPORTED), new Message("assistant", "still here", t, "lango-agent", List.of(), null), StateDelta.NONE, t);
        }
    }

    private static final String IMPORTED = "from-h2";

    /** The server's first start imported the H2 database of an earlier version (HSQLDB only). */
    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void earlierH2DatabaseWasImportedAtTheFirstStart() throws Exception {
        assumeFalse(database.postgresql() || half != 0, "the import is the embedded database's, at its first server's start");
        JsonNode events = get("api/apps/lango/users/" + USER + "/sessions/" + IMPORTED).path("events");
        assertEquals("from the H2 days", events.path(0).path("content").path("parts").path(0).path("text").asText());
        assertEquals("still here", events.path(1).path("content").path("parts").path(0).path("text").asText());
        Path db = dataDir().resolve("db");
        assertTrue(Files.exists(db.resolve("lango.mv.db.imported")), "the H2 file is kept under its new name");
        assertFalse(Files.exists(db.resolve("lango.mv.db")));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void everyAcknowledgedEventSurvivesSigkillAndTheSessionTakesTheNextTurn() throws Exception {
        for (int cycle = half * CYCLES / 2; cycle < (half + 1) * CYCLES / 2; cycle++) {
            String session = "crash-" + cycle + "-" + System.nanoTime();
            Acknowledged acknowledged = new Acknowledged();
            acknowledgedSessions.put(session, acknowledged);
            fake.reset();
            // A turn acknowledged before the crash moment, so every killed session has history.
            runTurn(session, "hello " + cycle, acknowledged, Reply.openAiText("Hi, ", "cycle " + cycle + "."));
            String moment = switch (cycle % 4) {
                case 0 -> killRightAfterAnAcknowledgedToolTurn(session, cycle, acknowledged);
                case 1 -> killMidStream(session, cycle, acknowledged);
                case 2 -> killDuringAToolCall(session, cycle, acknowledged);
                default -> killRightAfterALongStreamedAnswer(session, cycle, acknowledged);
            };
            // The turn cut mid-stream goes on by itself after the restart: the model is asked again.
            String resumedAnswer = "Resumed story " + cycle + ".";
            if (cycle % 4 == 1) {
                fake.enqueue(Reply.openAiText("Resumed ", "story " + cycle + "."));
            }
            long restart = System.nanoTime();
            server.start();
            System.out.printf("CrashIT on %s, cycle %d (%s): restarted in %d ms%n", database, cycle, moment, (System.nanoTime() - restart) / 1_000_000);
            if (cycle % 4 == 1) {
                resumedWithItsAnswer(session, resumedAnswer, acknowledged);
            } else if (cycle % 4 == 2) {
                waitsForAPersonToRunTheCutCommandAgain(session);
            }

            for (Map.Entry<String, Acknowledged> earlier : acknowledgedSessions.entrySet()) {
                assertAllThere(earlier.getKey(), earlier.getValue());
                assertNothingTorn(earlier.getKey());
            }
            takesTheNextTurn(session, cycle, acknowledged);
        }
    }

    /** POST /api/run with a tool call; SIGKILL the moment its 200 arrives. */
    private String killRightAfterAnAcknowledgedToolTurn(String session, int cycle, Acknowledged acknowledged) throws Exception {
        fake.enqueue(Reply.openAiToolCall("call_list_" + cycle, "fs_list", "{\"path\":\".\"}"))
                .enqueue(Reply.openAiText("Listed ", "the workspace."));
        runTurn(session, "list the workspace " + cycle, acknowledged, null);
        server.kill();
        return "right after an acknowledged turn with a tool call over /api/run";
    }

    /**
     * A long answer streamed over /ws; SIGKILL after some of its chunks. Every other time, the kill
     * comes the moment the first chunk arrives, from a model that writes it 3 ms after the request:
     * the user's message commits while the model is called, and the chunk must not go out before
     * that commit did (a question lost after its answer began would fail here).
     */
    private String killMidStream(String session, int cycle, Acknowledged acknowledged) throws Exception {
        String[] deltas = longAnswer(cycle);
        acknowledged.wholeAnswers.add(String.join("", deltas));
        fake.enqueue(Reply.paced(Duration.ofMillis(3), OpenAi.textFrames(deltas)));
        int killAfter = cycle % 8 == 1 ? 1 : 1 + (cycle * 37) % (LONG_ANSWER_CHUNKS - 20);
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            String text = "tell a long story " + cycle;
            socket.send(ItSocket.chat("1", session, text));
            int chunks = 0;
            while (chunks < killAfter) {
                JsonNode frame = socket.next();
                if ("agent.chunk".equals(frame.path("event").asText())) {
                    chunks++;
                    if (chunks == 1) {
                        acknowledged.userTexts.add(text); // stored before the first chunk was sent
                    }
                }
                assertFalse("response".equals(frame.path("type").asText()), "the answer ended before the kill: " + frame);
            }
            server.kill();
        }
        return "mid-stream over /ws after " + killAfter + " of " + LONG_ANSWER_CHUNKS + " chunks";
    }

    /** /ws, the model calls exec (sleep 5); SIGKILL once the call was announced, while the tool runs. */
    private String killDuringAToolCall(String session, int cycle, Acknowledged acknowledged) throws Exception {
        fake.enqueue(Reply.openAiToolCall("call_sleep_" + cycle, "exec", "{\"command\":\"sleep 5\"}"));
        long delayMillis = (cycle * 53L) % 400;
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            String text = "run a slow command " + cycle;
            socket.send(ItSocket.chat("1", session, text));
            JsonNode frame;
            do {
                frame = socket.next();
                assertFalse("response".equals(frame.path("type").asText()), "the turn ended before the tool ran: " + frame);
            } while (!"agent.tool_call".equals(frame.path("event").asText()));
            acknowledged.userTexts.add(text);
            acknowledged.calls.put(frame.path("payload").path("id").asText(), frame.path("payload").path("args"));
            Thread.sleep(delayMillis);
            server.kill();
        }
        return "during a tool call over /ws, " + delayMillis + " ms after it was announced";
    }

    /** A long answer streamed over /ws to its end; SIGKILL the moment its response arrives. */
    private String killRightAfterALongStreamedAnswer(String session, int cycle, Acknowledged acknowledged) throws Exception {
        String[] deltas = longAnswer(cycle);
        fake.enqueue(Reply.paced(Duration.ofMillis(1), OpenAi.textFrames(deltas)));
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            String text = "tell another long story " + cycle;
            socket.send(ItSocket.chat("1", session, text));
            List<JsonNode> frames = socket.untilResponse();
            server.kill();
            JsonNode response = frames.get(frames.size() - 1);
            assertEquals(String.join("", deltas), response.path("result").path("response").asText(), response.toString());
            List<JsonNode> chunks = ItSocket.events(frames, "agent.chunk");
            // chunk by chunk, but for the first few a stream holds back while they are within its masking window
            assertTrue(chunks.size() >= LONG_ANSWER_CHUNKS * 9 / 10, chunks.size() + " chunks of " + LONG_ANSWER_CHUNKS);
            assertEquals(String.join("", deltas), chunks.stream().map(c -> c.path("chunk").asText())
                    .collect(java.util.stream.Collectors.joining()), "the chunks are the answer");
            acknowledged.userTexts.add(text);
            acknowledged.answers.add(String.join("", deltas));
        }
        return "right after a long streamed answer was acknowledged over /ws";
    }

    /**
     * The turn cut mid-stream finished by itself after the restart: its answer is stored once, after its question,
     * which is stored once.
     */
    private void resumedWithItsAnswer(String session, String answer, Acknowledged acknowledged) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> texts;
        do {
            texts = texts(session);
            if (texts.contains("model: " + answer)) {
                break;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < until);
        assertEquals(1, texts.stream().filter(("model: " + answer)::equals).count(), session + ": " + texts);
        String question = acknowledged.userTexts.get(acknowledged.userTexts.size() - 1);
        assertEquals(1, texts.stream().filter(("user: " + question)::equals).count(), session + ": " + texts);
        assertTrue(texts.indexOf("user: " + question) < texts.indexOf("model: " + answer), session + ": " + texts);
        acknowledged.answers.add(answer);
    }

    /**
     * The command cut while it ran is not run again by itself: the turn waits for a person, whose card says the
     * command may or may not have taken effect (the next message supersedes it: it then does not run).
     */
    private void waitsForAPersonToRunTheCutCommandAgain(String session) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode rerun = null;
        while (rerun == null && System.nanoTime() < until) {
            for (JsonNode approval : get("api/admin/approvals?sessionKey=" + session).path("approvals")) {
                if ("pending".equals(approval.path("decision").asText()) && approval.path("notes").has("rerun")) {
                    rerun = approval;
                }
            }
            Thread.sleep(200);
        }
        assertNotNull(rerun, session + ": no request to run the cut command again");
        assertEquals("exec", rerun.path("tool").asText(), rerun.toString());
    }

    /** The session's texts as stored, in order: "user: …" and "model: …". */
    private List<String> texts(String session) throws Exception {
        return TestJson.conversation(get("api/apps/lango/users/" + USER + "/sessions/" + session).path("events"));
    }

    private static String[] longAnswer(int cycle) {
        String[] deltas = new String[LONG_ANSWER_CHUNKS];
        for (int i = 0; i < deltas.length; i++) {
            deltas[i] = "word" + cycle + "." + i + " ";
        }
        return deltas;
    }

    /**
     * After the restart the crashed session answers its next turn, and the model gets a history it
     * accepts: the user first, every tool call answered.
     */
    private void takesTheNextTurn(String session, int cycle, Acknowledged acknowledged) throws Exception {
        fake.reset();
        String answer = runTurn(session, "are you back " + cycle, acknowledged, Reply.openAiText("Back ", "after crash " + cycle + "."));
        assertEquals("Back after crash " + cycle + ".", answer);
        JsonNode messages = fake.last().json().path("messages");
        assertEquals("system", messages.get(0).path("role").asText());
        assertEquals("user", messages.get(1).path("role").asText(), messages.toString());
        Set<String> open = new HashSet<>();
        for (JsonNode message : messages) {
            message.path("tool_calls").forEach(call -> open.add(call.path("id").asText()));
            if ("tool".equals(message.path("role").asText())) {
                open.remove(message.path("tool_call_id").asText());
            }
        }
        assertTrue(open.isEmpty(), "unanswered tool calls sent to the model: " + open);
    }

    /** POST /api/run; a 200 acknowledges every event it returns and the user's message. Returns the answer's text. */
    private String runTurn(String session, String text, Acknowledged acknowledged, Reply reply) throws Exception {
        if (reply != null) {
            fake.enqueue(reply);
        }
        String body = TestJson.runRequest(USER, session, text);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/run"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        acknowledged.userTexts.add(text);
        String answer = "";
        for (JsonNode event : JSON.readTree(response.body())) {
            acknowledged.eventIds.add(event.path("id").asText());
            for (JsonNode part : event.path("content").path("parts")) {
                if (part.has("functionCall")) {
                    acknowledged.calls.put(part.path("functionCall").path("id").asText(), part.path("functionCall").path("args"));
                }
                if (part.has("functionResponse")) {
                    acknowledged.results.add(part.path("functionResponse").path("id").asText());
                }
                if (part.has("text")) {
                    answer = part.path("text").asText();
                }
            }
        }
        acknowledged.answers.add(answer);
        return answer;
    }

    /** Every acknowledged event of the session, read back through the ADK API after the restart. */
    private void assertAllThere(String session, Acknowledged acknowledged) throws Exception {
        JsonNode events = get("api/apps/lango/users/" + USER + "/sessions/" + session).path("events");
        Set<String> ids = new HashSet<>();
        List<String> userTexts = new ArrayList<>();
        Map<String, JsonNode> calls = new HashMap<>();
        Set<String> results = new HashSet<>();
        List<String> answers = new ArrayList<>();
        for (JsonNode event : events) {
            ids.add(event.path("id").asText());
            boolean fromUser = "user".equals(event.path("author").asText());
            for (JsonNode part : event.path("content").path("parts")) {
                if (part.has("functionCall")) {
                    calls.put(part.path("functionCall").path("id").asText(), part.path("functionCall").path("args"));
                } else if (part.has("functionResponse")) {
                    results.add(part.path("functionResponse").path("id").asText());
                } else if (part.has("text")) {
                    // a user's words, after any note the server put before them (a request of the cut turn superseded)
                    String text = part.path("text").asText();
                    (fromUser ? userTexts : answers).add(fromUser ? text.replaceFirst("^(\\[System: [^\\]]*\\]\n)+", "") : text);
                }
            }
        }
        String where = "session " + session + " after the restart";
        assertTrue(ids.containsAll(acknowledged.eventIds), where + ": events missing");
        assertTrue(userTexts.containsAll(acknowledged.userTexts), where + ": user messages " + acknowledged.userTexts + " not all in " + userTexts);
        acknowledged.calls.forEach((id, args) -> assertEquals(args, calls.get(id), where + ": tool call " + id));
        assertTrue(results.containsAll(acknowledged.results), where + ": tool results missing");
        assertTrue(answers.containsAll(acknowledged.answers), where + ": answers missing");
        for (String answer : answers) {
            if (!acknowledged.answers.contains(answer)) {
                assertTrue(acknowledged.wholeAnswers.contains(answer), where + ": an answer that was never whole: " + answer);
            }
        }
    }

    /**
     * The stored form, read by the admin API: the conversation opens with the user, every tool
     * call has its input, every tool result its output and a call before it.
     */
    private void assertNothingTorn(String session) throws Exception {
        JsonNode messages = get("api/admin/sessions/" + session).path("messages");
        assertEquals("user", messages.path(0).path("role").asText(), session + ": " + messages);
        Set<String> called = new HashSet<>();
        for (JsonNode message : messages) {
            assertNotNull(message.get("content"), session + ": " + message);
            for (JsonNode call : message.path("toolCalls")) {
                // a call has its input (the model's, or ADK's confirmation asking a person), a result its output
                if (call.hasNonNull("input")) {
                    assertTrue(JSON.readTree(call.path("input").asText()).isObject(), session + ": call without its input " + call);
                    called.add(call.path("id").asText());
                } else {
                    assertTrue(called.contains(call.path("id").asText()), session + ": a result before its call " + call);
                    assertTrue(JSON.readTree(call.path("output").asText()).isObject(), session + ": result without output " + call);
                }
            }
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve(path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    /** Deletes {@code dir} and everything under it (a server's earlier data directory). */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
