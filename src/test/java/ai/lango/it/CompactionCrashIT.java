package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Compaction after a crash mid-tool, on a server of its own (embedded database): the server is killed with SIGKILL
 * while a tool call of the second turn runs, started again (the turn is resumed: the read is made again), and after
 * further turns past the budget the history is compacted — the first turn's fact reaches the model through the summary,
 * the session holds an {@code actions.compaction} event, and every request the model got has each call with its result.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompactionCrashIT {

    private static final String SUMMARIZER_ASKS = "You compact a conversation";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** This test's own ports (19320–19339). */
    private static final int PORT = 19320;
    private static final int FAKE_PORT = 19321;

    private FakeLlmServer fake;
    private LibertyServer server;
    private Path workspace;
    /** What the agent's model answers next, in order (the summarizer answers by echoing the code word it is shown). */
    private final Deque<Reply> replies = new java.util.concurrent.ConcurrentLinkedDeque<>();

    private Path dataDir() {
        return Path.of("target", "it-data-compaction-crash").toAbsolutePath();
    }

    @BeforeAll
    void startServer() throws Exception {
        CrashIT.deleteRecursively(dataDir());
        workspace = Files.createDirectories(dataDir().resolve("workspace"));
        fake = FakeLlmServer.start(FAKE_PORT);
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("OSPREY") ? "SUMMARY: the user's code word is OSPREY." : "SUMMARY: small talk."));
        fake.route(request -> true, request -> {
            Reply next = replies.poll();
            return next != null ? next : Reply.openAiText("(no reply scripted)");
        });
        java.util.Map<String, String> environment = ItDatabase.HSQLDB.environment(dataDir(), PORT, "compaction-crash");
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + FAKE_PORT + "/v1");
        environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
        environment.put("LANGO_AGENT_TOKEN_BUDGET", "1500");
        environment.put("LANGO_AGENT_COMPACTION_KEEP_RECENT_TURNS", "1");
        server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("compaction-crash"), PORT, environment);
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

    @Test
    void aCallCutByAKillStaysPairedAndTheHistoryIsStillCompacted() throws Exception {
        String session = "compaction-crash-" + RUN;
        Path pipe = workspace.resolve("pipe-" + RUN);
        assertTrue(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0, "mkfifo");
        String first = "Remember the code word OSPREY for later, please.";
        String filler = "I will keep it in mind. ".repeat(60);

        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            replies.add(Reply.openAiText("Noted. " + filler));
            chat(socket, "1", session, first);
            // the read waits on its pipe: the server is killed while the tool runs
            replies.add(Reply.openAiToolCall("call_pipe_" + RUN, "fs_read", "{\"path\":\"" + pipe.getFileName() + "\"}"));
            replies.add(Reply.openAiText("The pipe said it. " + filler));
            socket.send(ItSocket.chat("2", session, "Read the pipe, please."));
            awaitEvent(socket, "agent.tool_call", session);
        }
        Thread.sleep(1000);
        server.kill();
        server.start();
        // the resumed turn makes the read again, which waits on the pipe until it is written
        Files.writeString(pipe, "the pipe's words\n");
        awaitTrue(() -> texts(session).stream().anyMatch(t -> t.startsWith("model: The pipe said it.")), "the resumed turn ended");

        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            for (int i = 3; i <= 7 && fake.requests().stream().noneMatch(r -> r.body().contains(SUMMARIZER_ASKS)); i++) {
                replies.add(Reply.openAiText("Answer " + i + ". " + filler));
                chat(socket, String.valueOf(i), session, "Question " + i + ", please.");
                Thread.sleep(500); // the background pass runs after the turn
            }
            awaitTrue(() -> fake.requests().stream().anyMatch(r -> r.body().contains(SUMMARIZER_ASKS)), "a compaction ran");
            awaitTrue(() -> events(session).stream().anyMatch(e -> e.path("actions").has("compaction")
                    && !e.path("actions").path("compaction").isNull()), "the compaction is stored");
            replies.add(Reply.openAiText("OSPREY."));
            chat(socket, "last", session, "What is the code word?");
        }
        List<FakeLlmServer.Recorded> agent = fake.requests().stream().filter(r -> !r.body().contains(SUMMARIZER_ASKS)).toList();
        String last = agent.get(agent.size() - 1).body();
        assertTrue(last.contains("SUMMARY: the user's code word is OSPREY"), "the request is built from the summary: " + last);
        assertFalse(last.contains(first), "the first turn's own text is folded");
        for (FakeLlmServer.Recorded request : agent) {
            CompactionBeforeCallIT.assertPaired(request.json().path("messages"));
        }
    }

    private static void chat(ItSocket socket, String id, String session, String text) throws InterruptedException {
        socket.send(ItSocket.chat(id, session, text));
        awaitEvent(socket, "agent.done", session);
    }

    private static JsonNode awaitEvent(ItSocket socket, String name, String session) throws InterruptedException {
        while (true) {
            JsonNode frame = socket.next();
            if (name.equals(frame.path("event").asText()) && session.equals(frame.at("/payload/sessionKey").asText())) {
                return frame;
            }
        }
    }

    private List<JsonNode> events(String session) {
        try {
            HttpResponse<String> got = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/apps/lango/users/user/sessions/"
                    + session)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (got.statusCode() != 200) {
                return List.of();
            }
            List<JsonNode> events = new java.util.ArrayList<>();
            TestJson.MAPPER.readTree(got.body()).path("events").forEach(events::add);
            return events;
        } catch (Exception e) {
            return List.of();
        }
    }

    /** The session's texts as stored, in order: "user: …" and "model: …". */
    private List<String> texts(String session) {
        return TestJson.conversation(events(session));
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("not within 90 s: " + what);
            }
            Thread.sleep(200);
        }
    }
}
