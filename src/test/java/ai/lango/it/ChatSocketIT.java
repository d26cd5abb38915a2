package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static ai.lango.fake.FakeLlmServer.lastUserMessageContains;

import ai.lango.fake.FakeLlmServer.PacedText;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** WebSocket chat as a client sees it, against the real server and a fake model in this JVM. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class ChatSocketIT extends FakeLlmIT {

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    private ItSocket client;

    @BeforeEach
    void connect() throws Exception {
        client = ItSocket.connect(base);
    }

    @AfterEach
    void close() {
        client.close();
    }

    private void send(String frame) {
        client.send(frame);
    }

    private JsonNode next() throws InterruptedException {
        return client.next();
    }

    private List<JsonNode> untilResponse() throws InterruptedException {
        return client.untilResponse();
    }

    private static String chat(String id, String sessionKey, String message) {
        return ItSocket.chat(id, sessionKey, message);
    }

    @Test
    void chatStreamsChunksShowsToolCallsAndEndsWithOneResponse() throws Exception {
        String key = "ws-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiToolCall("call_ws1", "fs_write", "{\"path\":\"ws/" + key + ".txt\",\"content\":\"hi\"}"))
                .enqueue(Reply.openAiText("All ", "done", "."));

        send(chat("r1", key, "write hi"));
        List<JsonNode> seen = untilResponse();

        List<String> names = seen.stream().filter(f -> f.path("type").asText().equals("event"))
                .map(f -> f.path("event").asText()).toList();
        assertEquals("agent.thinking", names.get(0));
        assertEquals("agent.done", names.get(names.size() - 1));
        JsonNode call = seen.stream().filter(f -> f.path("event").asText().equals("agent.tool_call")).findFirst().orElseThrow();
        assertEquals("call_ws1", call.path("payload").path("id").asText());
        assertEquals("fs_write", call.path("payload").path("name").asText());
        assertEquals(key, call.path("payload").path("sessionKey").asText());
        JsonNode result = seen.stream().filter(f -> f.path("event").asText().equals("agent.tool_result")).findFirst().orElseThrow();
        assertEquals(2, result.path("payload").path("result").path("bytes").asInt());
        StringBuilder chunks = new StringBuilder();
        seen.stream().filter(f -> f.path("event").asText().equals("agent.chunk"))
                .forEach(f -> chunks.append(f.path("payload").path("chunk").asText()));
        assertEquals("All done.", chunks.toString());
        JsonNode response = seen.get(seen.size() - 1);
        assertEquals("r1", response.path("id").asText());
        assertEquals("All done.", response.path("result").path("response").asText());
    }

    @Test
    void aSessionIsTitledByItsFirstMessageAndRenamedOverTheSocket() throws Exception {
        String key = "ws-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiText("Sure."));
        send(chat("t1", key, "Plan the Friday release\\nwith every step"));
        untilResponse();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> session = http.send(HttpRequest.newBuilder(URI.create(base + "api/apps/lango/users/user/sessions/" + key))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("Plan the Friday release", TestJson.MAPPER.readTree(session.body()).path("state").path("lango:title").asText(),
                session.body());

        send("{\"type\":\"request\",\"id\":\"n1\",\"method\":\"session.rename\",\"params\":{\"sessionKey\":\"" + key
                + "\",\"title\":\"  Release plan \\u200b \"}}");
        JsonNode renamed = next();
        assertEquals("n1", renamed.path("id").asText());
        assertEquals("Release plan", renamed.path("result").path("title").asText(), renamed.toString());
        session = http.send(HttpRequest.newBuilder(URI.create(base + "api/apps/lango/users/user/sessions/" + key)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("Release plan", TestJson.MAPPER.readTree(session.body()).path("state").path("lango:title").asText());

        send("{\"type\":\"request\",\"id\":\"n2\",\"method\":\"session.rename\",\"params\":{\"sessionKey\":\"no-such-"
                + UUID.randomUUID() + "\",\"title\":\"x\"}}");
        assertEquals("session_not_found", next().path("error").path("code").asText());
        send("{\"type\":\"request\",\"id\":\"n3\",\"method\":\"session.rename\",\"params\":{\"sessionKey\":\"" + key
                + "\",\"title\":\" \"}}");
        assertEquals("invalid_params", next().path("error").path("code").asText());
    }

    /**
     * A retry ({@code params.retry}) asks the last question again in place of its answer: the model reads the question
     * once and not the old answer, now or later; the old answer stays stored, superseded; a retry of a question that is
     * not the last one replaces nothing.
     */
    @Test
    void aRetryAsksTheQuestionOnceInPlaceOfItsAnswerWhichStaysStoredAsSuperseded() throws Exception {
        String key = "ws-" + UUID.randomUUID();
        String ask = "what is the answer, " + key;
        fake.enqueue(Reply.openAiText("Forty-one."));
        send(chat("q1", key, ask));
        untilResponse();

        fake.enqueue(Reply.openAiText("Forty-two."));
        send(retry("q2", key, ask));
        List<JsonNode> seen = untilResponse();
        assertEquals("Forty-two.", seen.get(seen.size() - 1).path("result").path("response").asText(), seen.toString());
        String asked = fake.last().body();
        assertEquals(1, asked.split(java.util.regex.Pattern.quote(ask), -1).length - 1, "the question once: " + asked);
        assertFalse(asked.contains("Forty-one."), "not the answer it replaces: " + asked);

        HttpResponse<String> session = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                + "api/apps/lango/users/user/sessions/" + key)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(session.body().contains("Forty-one.") && session.body().contains("Forty-two."), "both stored: " + session.body());
        assertEquals(1, TestJson.MAPPER.readTree(session.body()).path("state").path("lango:superseded").size(), session.body());

        fake.enqueue(Reply.openAiText("Sure."));
        send(chat("q3", key, "are you sure?"));
        untilResponse();
        asked = fake.last().body();
        assertEquals(1, asked.split(java.util.regex.Pattern.quote(ask), -1).length - 1, "later too: " + asked);
        assertTrue(asked.contains("Forty-two.") && !asked.contains("Forty-one."), asked);

        fake.enqueue(Reply.openAiText("New."));
        send(retry("q4", key, "a question never asked"));
        untilResponse();
        assertTrue(fake.last().body().contains("are you sure?") && fake.last().body().contains("Sure."),
                "a retry of another question replaced nothing: " + fake.last().body());
    }

    private static String retry(String id, String sessionKey, String message) {
        return chat(id, sessionKey, message).replace("}}", ",\"retry\":true}}");
    }

    @Test
    void hundredMalformedFramesLeaveTheConnectionHealthy() throws Exception {
        for (int i = 0; i < 100; i++) {
            send("{not json " + i);
            JsonNode error = next();
            assertEquals("response", error.path("type").asText());
            assertTrue(error.path("id").isNull());
            assertEquals("invalid_json", error.path("error").path("code").asText());
        }
        client.socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).join();
        assertEquals("binary_not_supported", next().path("error").path("code").asText());

        fake.enqueue(Reply.openAiText("Still here."));
        send(chat("r2", "ws-" + UUID.randomUUID(), "hello"));
        List<JsonNode> seen = untilResponse();
        assertEquals("Still here.", seen.get(seen.size() - 1).path("result").path("response").asText());
    }

    @Test
    void aSessionKeyThatBreaksTheIdRuleIsRefusedBeforeAnythingIsStored() throws Exception {
        for (String key : List.of("../x", "a/b", "a b", "k".repeat(256))) {
            send(chat("bad", key, "hello"));
            JsonNode error = next();
            assertEquals("bad", error.path("id").asText());
            assertEquals("invalid_id", error.path("error").path("code").asText(), error.toString());
        }
        assertTrue(fake.requests().isEmpty(), "no turn ran");
    }

    @Test
    void failedTurnAnswersWithAnErrorResponse() throws Exception {
        fake.enqueue(Reply.status(401, "{\"error\":{\"message\":\"bad key\"}}"));
        send(chat("r3", "ws-" + UUID.randomUUID(), "hello"));
        List<JsonNode> seen = untilResponse();
        JsonNode response = seen.get(seen.size() - 1);
        assertEquals("r3", response.path("id").asText());
        assertEquals("provider_authentication_failed", response.path("error").path("code").asText(), "named as on /api");
        assertTrue(response.path("error").path("message").asText().contains("lango.providers.openai.api-key"));
    }

    /** As the README says: a frame over 1 MiB, however large, gets an error response and the connection stays open. */
    @Test
    void framesOverOneMebibyteAreRefusedWithAClearErrorAndTheConnectionStaysOpen() throws Exception {
        // 1 MiB of "é" is 2 MiB of UTF-8; 5 MiB is past what the server would ever buffer.
        for (String payload : List.of("x".repeat(1024 * 1024), "é".repeat(600 * 1024), "x".repeat(5 * 1024 * 1024))) {
            send(chat("big", "ws-big", payload));
            JsonNode error = next();
            assertEquals("frame_too_large", error.path("error").path("code").asText(), error.toString());
        }
        fake.enqueue(Reply.openAiText("ok"));
        send(chat("after", "ws-" + UUID.randomUUID(), "small"));
        List<JsonNode> seen = untilResponse();
        assertEquals("ok", seen.get(seen.size() - 1).path("result").path("response").asText());
    }

    /**
     * What a client can get wrong at the frame level (a frame far over the limit, a huge binary
     * frame, a connection dropped in the middle of a frame) costs the server no FFDC report.
     * (Frames that break the protocol's own rules: see the next test.)
     */
    @Test
    void frameLevelMistakesWriteNoFfdcReport() throws Exception {
        java.nio.file.Path ffdc = ffdcDirectory();
        long before = count(ffdc);
        send(chat("huge", "ws-huge", "x".repeat(10 * 1024 * 1024)));
        assertEquals("frame_too_large", next().path("error").path("code").asText());
        client.socket.sendBinary(ByteBuffer.wrap(new byte[5 * 1024 * 1024]), true).join();
        assertEquals("binary_not_supported", next().path("error").path("code").asText());
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("GET " + base.getPath() + "ws HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
            assertEquals(101, ItRaw.status(raw.head()));
            // A masked text frame announcing 100,000 bytes, of which 10 arrive before the connection goes.
            raw.write(new byte[] {(byte) 0x81, (byte) 0xFE, (byte) (100_000 >> 8), (byte) (100_000 & 0xFF), 1, 2, 3, 4});
            raw.write(new byte[10]);
            raw.socket.setSoLinger(true, 0); // a reset, not a clean close
        }
        Thread.sleep(3_000);
        assertEquals(before, count(ffdc), "FFDC reports in " + ffdc);
        fake.enqueue(Reply.openAiText("fine"));
        send(chat("still", "ws-" + UUID.randomUUID(), "hello"));
        List<JsonNode> seen = untilResponse();
        assertEquals("fine", seen.get(seen.size() - 1).path("result").path("response").asText());
    }

    /**
     * Frames that break the protocol itself (here unmasked, which a client must never send) are
     * refused by Liberty's frame reader before the application sees them, and Liberty files an FFDC
     * report for the first of a kind, not for each: a client repeating the mistake cannot fill the disk.
     */
    @Test
    void protocolBreakingFramesDoNotWriteAReportEach() throws Exception {
        java.nio.file.Path ffdc = ffdcDirectory();
        long before = count(ffdc);
        int clients = 15;
        for (int i = 0; i < clients; i++) {
            try (ItRaw raw = new ItRaw(base)) {
                raw.write("GET " + base.getPath() + "ws HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
                assertEquals(101, ItRaw.status(raw.head()));
                raw.write(new byte[] {(byte) 0x81, 0x05, 'h', 'e', 'l', 'l', 'o'}); // no mask bit
                raw.rest(); // the server ends the connection
            }
        }
        Thread.sleep(3_000);
        long written = count(ffdc) - before;
        assertTrue(written <= 2, written + " FFDC files for " + clients + " unmasked frames in " + ffdc);
        fake.enqueue(Reply.openAiText("fine"));
        send(chat("still", "ws-" + UUID.randomUUID(), "hello"));
        List<JsonNode> seen = untilResponse();
        assertEquals("fine", seen.get(seen.size() - 1).path("result").path("response").asText());
    }

    private static java.nio.file.Path ffdcDirectory() {
        return java.nio.file.Path.of("target", "liberty", "wlp", "usr", "servers",
                "liberty-pg".equals(System.getProperty("arquillian.launch"))
                        ? System.getProperty("it.server.name.pg") : System.getProperty("it.server.name"), "logs", "ffdc");
    }

    /** FFDC reports in the directory: not Liberty's exception summary, which comes with the server's first report. */
    private static long count(java.nio.file.Path dir) throws java.io.IOException {
        if (!java.nio.file.Files.isDirectory(dir)) {
            return 0;
        }
        try (var files = java.nio.file.Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("ffdc_")).count();
        }
    }

    @Test
    void upgradeFromAnotherOriginIsRefused() throws Exception {
        URI ws = URI.create(base.toString().replaceFirst("^http", "ws") + "ws");
        var refused = HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", "http://evil.example")
                .buildAsync(ws, new WebSocket.Listener() { });
        java.util.concurrent.ExecutionException error = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> refused.get(10, TimeUnit.SECONDS));
        assertTrue(error.getCause() instanceof java.net.http.WebSocketHandshakeException, String.valueOf(error.getCause()));
        assertEquals(403, ((java.net.http.WebSocketHandshakeException) error.getCause()).getResponse().statusCode());

        String own = "http://" + base.getHost() + ":" + base.getPort();
        HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", own)
                .buildAsync(ws, new WebSocket.Listener() { }).get(10, TimeUnit.SECONDS).abort();
    }

    private static String request(String id, String method, String sessionKey) {
        return "{\"type\":\"request\",\"id\":\"" + id + "\",\"method\":\"" + method + "\",\"params\":{\"sessionKey\":\""
                + sessionKey + "\"}}";
    }

    /** Frames until the responses to every id in {@code ids} came, by id. */
    private java.util.Map<String, JsonNode> responsesTo(String... ids) throws InterruptedException {
        java.util.Map<String, JsonNode> answered = new java.util.HashMap<>();
        List<JsonNode> seen = new ArrayList<>();
        while (answered.size() < ids.length) {
            JsonNode frame = next();
            seen.add(frame);
            if ("response".equals(frame.path("type").asText()) && List.of(ids).contains(frame.path("id").asText())) {
                answered.put(frame.path("id").asText(), frame);
            }
        }
        return answered;
    }

    /** Starts a long answer to a question of its own on {@code key} and returns once its first words came. */
    private PacedText longAnswerStarted(String id, String key, String ask) throws Exception {
        PacedText slow = PacedText.openAi(Duration.ofMillis(300), java.util.Collections.nCopies(100, "word ").toArray(String[]::new));
        fake.route(lastUserMessageContains(ask), r -> slow);
        send(chat(id, key, ask));
        JsonNode frame;
        do {
            frame = next();
        } while (!frame.toString().contains("word"));
        return slow;
    }

    @Test
    void chatAbortStopsTheRunningTurnAndTheSessionTakesTheNextMessageAtOnce() throws Exception {
        String key = "ws-" + UUID.randomUUID();
        String ask = "tell a long story " + key;
        PacedText slow = longAnswerStarted("a1", key, ask);
        long asked = System.nanoTime();
        send(request("a2", "chat.abort", key));
        java.util.Map<String, JsonNode> answered = responsesTo("a1", "a2");
        assertEquals(true, answered.get("a2").path("result").path("stopped").asBoolean(), answered.toString());
        assertEquals("aborted", answered.get("a1").path("error").path("code").asText(), answered.toString());
        assertTrue(System.nanoTime() - asked < TimeUnit.SECONDS.toNanos(10), "stopped at once, not after the 30 s answer");
        assertEquals(Boolean.FALSE, slow.finished().get(10, TimeUnit.SECONDS), "the model's stream was closed");

        send(request("a3", "chat.abort", key));
        assertEquals(false, responsesTo("a3").get("a3").path("result").path("stopped").asBoolean(), "nothing runs any more");
        String next = "and now briefly " + key;
        fake.route(lastUserMessageContains(next), r -> Reply.openAiText("Briefly."));
        send(chat("a4", key, next));
        assertEquals("Briefly.", responsesTo("a4").get("a4").path("result").path("response").asText());
    }

    @Test
    void sessionDeleteStopsItsTurnDeletesItAndThenFindsNothing() throws Exception {
        String key = "ws-" + UUID.randomUUID();
        longAnswerStarted("d1", key, "write at length " + key);
        send(request("d2", "session.delete", key));
        java.util.Map<String, JsonNode> answered = responsesTo("d1", "d2");
        assertEquals(true, answered.get("d2").path("result").path("deleted").asBoolean(), answered.toString());
        assertTrue(answered.get("d1").has("error"), "the running turn ended: " + answered.get("d1"));
        HttpResponse<String> gone = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                + "api/apps/lango/users/user/sessions/" + key)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, gone.statusCode(), gone.body());
        send(request("d3", "session.delete", key));
        assertEquals("session_not_found", responsesTo("d3").get("d3").path("error").path("code").asText());
    }
}
