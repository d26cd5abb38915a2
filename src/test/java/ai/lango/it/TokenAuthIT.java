package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lango.auth.token on the real server: REST needs the bearer token, /ws the auth frame first. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class TokenAuthIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private static final String TOKEN = "tok-it-" + "0123456789";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-secure.war"), "lango.auth.token=" + TOKEN + "\n"
                + "lango.ws.auth-timeout=PT2S\n");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void restWithoutTheTokenIsRefusedWithJson() throws Exception {
        for (String authorization : new String[] {null, "Bearer wrong", "Basic " + TOKEN}) {
            HttpResponse<String> response = get("api/list-apps", authorization);
            assertEquals(401, response.statusCode(), String.valueOf(authorization));
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
            assertTrue(JSON.readTree(response.body()).path("error").path("code").isTextual(), response.body());
        }
    }

    @Test
    void restWithTheTokenIsServedAndTheConfigMasksIt() throws Exception {
        assertEquals("[\"lango\"]", get("api/list-apps", "Bearer " + TOKEN).body());
        HttpResponse<String> config = get("api/admin/config", "Bearer " + TOKEN);
        assertEquals("****", JSON.readTree(config.body()).path("lango.auth.token").asText());
        assertTrue(!config.body().contains(TOKEN));
    }

    @Test
    void metricsNeedTheTokenToo() throws Exception {
        HttpResponse<String> refused = get("metrics", null);
        assertEquals(401, refused.statusCode());
        assertEquals("unauthorized", JSON.readTree(refused.body()).path("error").path("code").asText());
        HttpResponse<String> served = get("metrics", "Bearer " + TOKEN);
        assertEquals(200, served.statusCode());
        assertTrue(served.body().contains("jvm_memory_used_bytes"), served.body());
    }

    /** Liveness, as the IT server also lists the WAR that Arquillian deploys under other names, which keeps readiness DOWN. */
    @Test
    void healthStaysOpen() throws Exception {
        URI health = URI.create("http://" + base.getHost() + ":" + base.getPort() + "/health/live");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(health).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void socketWithoutTheAuthFrameIsClosedAsAPolicyViolation() throws Exception {
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        URI ws = URI.create(base.toString().replaceFirst("^http", "ws") + "ws");
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(ws, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
        socket.sendText(ItSocket.chat("r1", "secure", "hello"), true).join();
        assertEquals(WebSocket.NORMAL_CLOSURE + 8, closed.get(30, TimeUnit.SECONDS), "1008 policy violation");
    }

    @Test
    void aSocketThatNeverAuthenticatesIsClosedAfterTheAuthTimeout() throws Exception {
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        URI ws = URI.create(base.toString().replaceFirst("^http", "ws") + "ws");
        long start = System.nanoTime();
        HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(ws, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
        assertEquals(WebSocket.NORMAL_CLOSURE + 8, closed.get(20, TimeUnit.SECONDS), "1008 policy violation");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertTrue(seconds >= 1 && seconds < 15, "closed after lango.ws.auth-timeout (2 s), not " + seconds + " s");
    }

    @Test
    void socketAfterTheAuthFrameChatsNormally() throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM); ItSocket client = ItSocket.connect(base)) {
            fake.enqueue(Reply.openAiText("Authorised ", "hello."));
            client.send("{\"type\":\"auth\",\"token\":\"" + TOKEN + "\"}");
            client.send(ItSocket.chat("r2", "secure-" + UUID.randomUUID(), "hello"));
            List<JsonNode> frames = client.untilResponse();
            assertEquals("Authorised hello.", frames.get(frames.size() - 1).path("result").path("response").asText(),
                    frames.toString());
            assertTrue(fake.last().header("Authorization").contains("sk-it-secret-key"));
        }
    }
}
