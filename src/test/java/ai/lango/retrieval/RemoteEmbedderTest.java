package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The remote embedding providers' wire formats, against a fake server that records what it was sent. */
class RemoteEmbedderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private final AtomicReference<String> path = new AtomicReference<>();
    private final AtomicReference<String> body = new AtomicReference<>();
    private final AtomicReference<String> authorization = new AtomicReference<>();
    private final AtomicReference<String> googKey = new AtomicReference<>();

    private String serve(int status, String answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            path.set(exchange.getRequestURI().toString());
            body.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            googKey.set(exchange.getRequestHeaders().getFirst("x-goog-api-key"));
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void openAiCompatibleServersGetOneBatchAndTheKeyAsBearer() throws Exception {
        String base = serve(200, "{\"data\":[{\"embedding\":[3,4]},{\"embedding\":[0,2]}]}");
        RemoteEmbedder embedder = new RemoteEmbedder("ollama", RemoteEmbedder.Wire.OPENAI, base + "/v1/", "nomic-embed-text", "sk-e");
        List<float[]> vectors = embedder.embed(List.of("one", "two"));
        assertEquals("/v1/embeddings", path.get());
        JsonNode sent = JSON.readTree(body.get());
        assertEquals("nomic-embed-text", sent.path("model").asText());
        assertEquals("[\"one\",\"two\"]", sent.path("input").toString());
        assertEquals("Bearer sk-e", authorization.get());
        assertEquals(0.6f, vectors.get(0)[0], 1e-6, "vectors come back of unit length");
        assertEquals(1.0f, vectors.get(1)[1], 1e-6);
        assertEquals("ollama/nomic-embed-text", embedder.model());
    }

    @Test
    void geminiGetsBatchEmbedContentsWithTheKeyInAHeaderNeverInTheUrl() throws Exception {
        String base = serve(200, "{\"embeddings\":[{\"values\":[1,0,0]}]}");
        RemoteEmbedder embedder = new RemoteEmbedder("gemini", RemoteEmbedder.Wire.GEMINI, base, "text-embedding-004", "g-key");
        assertEquals(3, embedder.embed(List.of("hello")).get(0).length);
        assertEquals("/v1beta/models/text-embedding-004:batchEmbedContents", path.get());
        assertFalse(path.get().contains("g-key"));
        assertEquals("g-key", googKey.get());
        JsonNode request = JSON.readTree(body.get()).path("requests").get(0);
        assertEquals("models/text-embedding-004", request.path("model").asText());
        assertEquals("hello", request.path("content").path("parts").get(0).path("text").asText());
    }

    @Test
    void anErrorAnswerSaysWhichModelAndStatusWithoutTheKey() throws Exception {
        String base = serve(401, "{\"error\":\"bad key\"}");
        RemoteEmbedder embedder = new RemoteEmbedder("openai", RemoteEmbedder.Wire.OPENAI, base, "text-embedding-3-small", "sk-secret");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> embedder.embed(List.of("x")));
        assertTrue(e.getMessage().contains("openai/text-embedding-3-small") && e.getMessage().contains("401"), e.getMessage());
        assertFalse(e.getMessage().contains("sk-secret"));
    }

    /** Some servers quote the key they refused; the message carries what they said, never the key. */
    @Test
    void anErrorAnswerThatQuotesTheKeyDoesNotPassItOn() throws Exception {
        String base = serve(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-secret-4711\"}}");
        RemoteEmbedder embedder = new RemoteEmbedder("openai", RemoteEmbedder.Wire.OPENAI, base, "text-embedding-3-small",
                "sk-secret-4711");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> embedder.embed(List.of("x")));
        assertTrue(e.getMessage().contains("401") && e.getMessage().contains("Incorrect API key provided"), e.getMessage());
        assertFalse(e.getMessage().contains("sk-secret-4711"), e.getMessage());
    }

    @Test
    void aCountMismatchIsAnError() throws Exception {
        String base = serve(200, "{\"data\":[{\"embedding\":[1]}]}");
        RemoteEmbedder embedder = new RemoteEmbedder("openai", RemoteEmbedder.Wire.OPENAI, base, "m", null);
        assertThrows(IllegalStateException.class, () -> embedder.embed(List.of("a", "b")));
        assertEquals(null, authorization.get(), "no key, no Authorization header");
    }
}
