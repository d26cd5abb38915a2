package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a careless or hostile client can send to the HTTP API: bodies over the limit,
 * ids that cannot be stored or addressed, another user's session, provider failures, a Host
 * header that is not this server's. Runs as a client unless it needs the store.
 */
@ExtendWith(ArquillianExtension.class)
@ItClassOrder.OnTheDefaultDeployment
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class HardEdgesIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private static final long MIB = 1024 * 1024;

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    @Inject
    SessionStore store;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "api/" + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String code(HttpResponse<String> response) throws Exception {
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), response.body());
        return JSON.readTree(response.body()).at("/error/code").asText();
    }

    private String path() {
        return base.getPath();
    }

    // --- 3: bodies are bounded ---

    @Test
    @RunAsClient
    void aBodyDeclaredOverMaxBodyIsRefusedWith413BeforeItIsRead() throws Exception {
        for (String endpoint : List.of("api/run", "api/a2a")) {
            try (ItRaw raw = new ItRaw(base)) {
                raw.write("POST " + path() + endpoint + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + 100 * MIB + "\r\n\r\n");
                raw.write(new byte[64 * 1024]); // and nothing more: the answer must not wait for the other 99.9 MiB
                String head = raw.head();
                assertEquals(413, ItRaw.status(head), endpoint + ": " + head);
                assertTrue(raw.rest().contains("\"body_too_large\""), endpoint);
            }
        }
    }

    @Test
    @RunAsClient
    void aBodyDeclaredBeyondWhatAnyServerAcceptsIsRefusedAndItsConnectionClosedAtOnce() throws Exception {
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("POST " + path() + "api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + 4L * 1024 * MIB + "\r\n\r\n");
            raw.write(new byte[64 * 1024]);
            long started = System.nanoTime();
            assertEquals(413, ItRaw.status(raw.head()));
            raw.rest();
            assertEquals(-1, raw.in.read(), "closed, not waiting for the other 4 GiB");
            assertTrue(System.nanoTime() - started < 5_000_000_000L);
        }
    }

    @Test
    @RunAsClient
    void anUploadCutOffMidBodyIsNoErrorAndNoStackTrace() throws Exception {
        Path log = Path.of("target/liberty/wlp/usr/servers", System.getProperty(
                "liberty-pg".equals(System.getProperty("arquillian.launch")) ? "it.server.name.pg" : "it.server.name"), "logs/messages.log");
        long before = Files.size(log);
        for (int i = 0; i < 3; i++) {
            try (ItRaw raw = new ItRaw(base)) {
                raw.write("POST " + path() + "api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 500000\r\n\r\n{\"appName\":\"" + "x".repeat(100_000));
                Thread.sleep(200);
            }
        }
        Thread.sleep(1_500);
        String written;
        try (var in = Files.newInputStream(log)) {
            in.skipNBytes(before);
            written = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertFalse(written.contains(" E ") || written.contains("\tat ") || written.contains("RESTEASY"),
                "a client that went away is not the server's error:\n" + written);
        assertTrue(written.lines().count() <= 3, "one line at most per cut upload:\n" + written);
    }

    @Test
    @RunAsClient
    void aMethodAPageDoesNotServeIsAJson405() throws Exception {
        for (String method : List.of("POST", "DELETE", "PUT")) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "index.html"))
                    .method(method, HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, response.statusCode(), method);
            assertEquals("method_not_allowed", code(response), method);
        }
    }

    @Test
    @RunAsClient
    void aChunkedBodyOverMaxBodyIsRefusedWith413() throws Exception {
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("POST " + path() + "api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            for (int i = 0; i < 17; i++) { // 1.06 MiB, and the body never ends
                raw.write(Integer.toHexString(chunk.length) + "\r\n");
                raw.write(chunk);
                raw.write("\r\n");
            }
            String head = raw.head();
            assertEquals(413, ItRaw.status(head), head);
        }
    }

    @Test
    @RunAsClient
    void aChunkedBodyUnderMaxBodyIsServed() throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM)) {
            fake.enqueue(Reply.openAiText("chunked ok"));
            byte[] body = TestJson.runRequest("edge-user", "chunked-" + UUID.randomUUID(), "hi").getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "api/run"))
                    .header("Content-Type", "application/json")
                    // a publisher of unknown length: sent chunked
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("chunked ok"));
        }
    }

    @Test
    @RunAsClient
    void aMessageOverTheModelsBudgetIsRefusedBeforeAnythingIsStored() throws Exception {
        String session = "huge-" + UUID.randomUUID();
        // gpt-4o-mini's history budget is 64,000 tokens, about 256,000 characters; this is 900,000, under max-body.
        HttpResponse<String> response = call("POST", "run", TestJson.runRequest("edge-user", session, "y ".repeat(450_000)));
        assertEquals(400, response.statusCode(), response.body());
        assertEquals("message_too_large", code(response));
        assertEquals(404, call("GET", "apps/lango/users/edge-user/sessions/" + session, null).statusCode());
    }

    // --- 4: ids are validated once, the same everywhere ---

    @Test
    @RunAsClient
    void idsThatBreakTheRuleAreRefusedWith400JsonBeforeAnythingIsStored() throws Exception {
        for (String bad : List.of("../x", "a/b", "../../etc/passwd", "a\u0000b", "a b", "..", "s".repeat(256))) {
            HttpResponse<String> run = call("POST", "run", TestJson.runRequest("edge-user", bad, "hi"));
            assertEquals(400, run.statusCode(), bad + ": " + run.body());
            assertEquals("invalid_id", code(run));
            assertFalse(run.body().contains("\u0000"), "no control character is echoed");
            // 404, or 400 where the key could not even be stored (a NUL on PostgreSQL).
            HttpResponse<String> lookup = call("GET", "admin/sessions?key=" + URLEncoder.encode(bad.length() > 255 ? "x" : bad,
                    StandardCharsets.UTF_8), null);
            assertTrue(lookup.statusCode() == 404 || lookup.statusCode() == 400 && code(lookup).equals("invalid_id"),
                    "nothing was stored for " + bad + ": " + lookup.body());
            assertEquals(404, call("GET", "admin/sessions?key=never-stored", null).statusCode(), "and the next lookup still works");
        }
        HttpResponse<String> longUser = call("POST", "run", TestJson.runRequest("u".repeat(5000), "s-" + UUID.randomUUID(), "hi"));
        assertEquals(400, longUser.statusCode());
        assertEquals("invalid_id", code(longUser));
        HttpResponse<String> create = call("POST", "apps/lango/users/edge-user/sessions/a%20b", null);
        assertEquals(400, create.statusCode());
        assertEquals("invalid_id", code(create));
    }

    /** (A NUL, %00, is refused by Liberty's HTTP channel before any application or error page sees the request.) */
    @Test
    @RunAsClient
    void aPathWithAnEncodedSlashIsAJson400NotAnHtmlPage() throws Exception {
        for (String id : List.of("a%2Fb", "..%2F..%2Fetc", "a%5Cb")) {
            HttpResponse<String> response = call("GET", "apps/lango/users/edge-user/sessions/" + id, null);
            assertEquals(400, response.statusCode(), id);
            assertEquals("bad_request", code(response), id);
            assertFalse(response.body().contains("Exception"), response.body());
        }
    }

    /** Keys stored before ids were validated: the admin API's query form reaches them, whatever their characters. */
    @Test
    void aStoredKeyThatNoLongerValidatesStaysReachableAndDeletable() throws Exception {
        for (String legacy : List.of("legacy/" + UUID.randomUUID(), "../legacy-" + UUID.randomUUID(), "legacy " + UUID.randomUUID(),
                "legacy\u0001" + UUID.randomUUID())) {
            store.create(SessionRef.of("legacy-user", legacy), Map.of());
            String query = "admin/sessions?key=" + URLEncoder.encode(legacy, StandardCharsets.UTF_8);
            HttpResponse<String> read = call("GET", query, null);
            assertEquals(200, read.statusCode(), legacy + ": " + read.body());
            assertEquals(legacy, JSON.readTree(read.body()).path("key").asText());
            JsonNode listed = JSON.readTree(call("GET", "apps/lango/users/legacy-user/sessions", null).body());
            assertTrue(listed.findValuesAsText("id").contains(legacy), "listed under its user");
            assertEquals(204, call("DELETE", query, null).statusCode());
            assertTrue(store.find(SessionRef.of("legacy-user", legacy)).isEmpty(), legacy + " deleted");
        }
    }

    // --- 5: session ids are each user's own; nothing tells one user what another holds ---

    @Test
    @RunAsClient
    void anotherUsersSessionUnderTheSameIdIsAnotherSessionAndNothingTellsItExists() throws Exception {
        String session = "owned-" + UUID.randomUUID();
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM)) {
            fake.enqueue(Reply.openAiText("the owner's answer"));
            assertEquals(200, call("POST", "run", TestJson.runRequest("owner", session, "the owner's question")).statusCode());

            // Creating, reading and running the same id as another user: that user's own, new session.
            HttpResponse<String> created = call("POST", "apps/lango/users/attacker/sessions/" + session, null);
            assertEquals(200, created.statusCode(), created.body());
            assertEquals("attacker", JSON.readTree(created.body()).path("userId").asText());
            HttpResponse<String> read = call("GET", "apps/lango/users/attacker/sessions/" + session, null);
            assertEquals(200, read.statusCode());
            assertEquals(0, JSON.readTree(read.body()).path("events").size(), read.body());
            fake.enqueue(Reply.openAiText("the attacker's answer"));
            HttpResponse<String> run = call("POST", "run", TestJson.runRequest("attacker", session, "what did the owner ask?"));
            assertEquals(200, run.statusCode(), run.body());
            String sentForAttacker = fake.last().body();
            assertTrue(sentForAttacker.contains("what did the owner ask?"), sentForAttacker);
            assertFalse(sentForAttacker.contains("the owner's question"), "another user's history never reaches the model");
            assertFalse(sentForAttacker.contains("the owner's answer"), sentForAttacker);

            // A second create is refused only as a duplicate of the caller's own session.
            HttpResponse<String> again = call("POST", "apps/lango/users/attacker/sessions/" + session, null);
            assertEquals(400, again.statusCode());
            assertEquals("session_exists", code(again));

            // Operators see both and say whose they mean.
            HttpResponse<String> ambiguous = call("GET", "admin/sessions/" + session, null);
            assertEquals(409, ambiguous.statusCode(), ambiguous.body());
            assertEquals("ambiguous_session", code(ambiguous));
            HttpResponse<String> owners = call("GET", "admin/sessions/" + session + "?userId=owner", null);
            assertEquals(200, owners.statusCode(), owners.body());
            assertTrue(owners.body().contains("the owner's answer") && !owners.body().contains("the attacker's answer"),
                    owners.body());

            // Deleting one user's session leaves the other's untouched.
            assertEquals(204, call("DELETE", "apps/lango/users/attacker/sessions/" + session, null).statusCode());
            HttpResponse<String> ownersAfter = call("GET", "apps/lango/users/owner/sessions/" + session, null);
            assertEquals(200, ownersAfter.statusCode());
            assertTrue(ownersAfter.body().contains("the owner's answer"), ownersAfter.body());
            assertEquals(404, call("GET", "apps/lango/users/attacker/sessions/" + session, null).statusCode());
            assertEquals(200, call("GET", "admin/sessions/" + session, null).statusCode(), "one user's again");
        }
    }

    // --- 6: errors say whose fault ---

    private static Reply status(int code, String retryAfter) {
        return exchange -> {
            byte[] body = "{\"error\":{\"message\":\"slow down\"}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (retryAfter != null) {
                exchange.getResponseHeaders().set("Retry-After", retryAfter);
            }
            exchange.sendResponseHeaders(code, body.length);
            exchange.getResponseBody().write(body);
        };
    }

    @Test
    @RunAsClient
    void aProviderRateLimitIs503WithTheProvidersRetryAfter() throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM)) {
            for (int i = 0; i < 4; i++) { // the first call and its three retries
                fake.enqueue(status(429, "7"));
            }
            HttpResponse<String> response = call("POST", "run", TestJson.runRequest("edge-user", "rl-" + UUID.randomUUID(), "hi"));
            assertEquals(503, response.statusCode(), response.body());
            assertEquals("provider_rate_limited", code(response));
            assertEquals("7", response.headers().firstValue("Retry-After").orElse(""));
        }
    }

    @Test
    @RunAsClient
    void aProviderServerErrorIs502() throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM)) {
            for (int i = 0; i < 4; i++) {
                fake.enqueue(status(500, null));
            }
            HttpResponse<String> response = call("POST", "run", TestJson.runRequest("edge-user", "5xx-" + UUID.randomUUID(), "hi"));
            assertEquals(502, response.statusCode(), response.body());
            assertEquals("provider_error", code(response));
        }
    }

    @Test
    @RunAsClient
    void aRunWithoutUserIdIs400() throws Exception {
        HttpResponse<String> response = call("POST", "run", "{\"appName\":\"lango\",\"sessionId\":\"s\",\"newMessage\":"
                + "{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}}");
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("userId"), response.body());
    }

    // --- 9: DNS rebinding ---

    @Test
    @RunAsClient
    void aHostThatIsNotThisServerIsRefusedOnPagesApiAndTheSocket() throws Exception {
        String evil = "evil.example:" + base.getPort();
        for (String target : List.of(path(), path() + "api/list-apps", path() + "metrics")) {
            String[] answer = ItRaw.get(base, target, evil);
            assertEquals(403, ItRaw.status(answer[0]), target + ": " + answer[0]);
            assertTrue(answer[1].contains("host_not_allowed"), answer[1]);
            assertEquals(200, ItRaw.status(ItRaw.get(base, target, "localhost:" + base.getPort())[0]), target);
        }
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("GET " + path() + "ws HTTP/1.1\r\nHost: " + evil + "\r\nOrigin: http://" + evil + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
            assertEquals(403, ItRaw.status(raw.head()), "a rebound page cannot open the socket");
        }
    }

    @Test
    @RunAsClient
    void aSocketHoldsNoHttpSession() throws Exception {
        // Liberty's handshake made an HTTP session for every socket (idle sockets' heap, docs/benchmarks.md).
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("GET " + path() + "ws HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
            String head = raw.head();
            assertEquals(101, ItRaw.status(head), head);
            assertFalse(head.contains("JSESSIONID"), head);
        }
    }

    // --- 8: Liberty's welcome page is off ---

    @Test
    @RunAsClient
    void libertysWelcomePageIsNeverServed() throws Exception {
        // No application answers at the test server's root, which is where Liberty shows its welcome page.
        String[] root = ItRaw.get(base, "/", "localhost:" + base.getPort());
        assertEquals(404, ItRaw.status(root[0]), root[0]);
        assertFalse(root[1].contains("Open Liberty"), root[1]);
    }
}
