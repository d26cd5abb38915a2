package ai.lango.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** An ADK API server session driven through POST /run_sse with "streaming": true (docs/adk-wire.md). */
final class SseDriver implements Driver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI base;
    private final String app;
    private final String sessionId;

    SseDriver(HttpClient http, URI base, String app, String sessionId) throws Exception {
        this.http = http;
        this.base = base;
        this.app = app;
        this.sessionId = sessionId;
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("apps/" + app + "/users/load/sessions/" + sessionId))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IllegalStateException("session not created: " + created.statusCode() + " " + created.body());
        }
    }

    @Override
    public int turn(String message, Chunks chunk) throws Exception {
        String body = JSON.createObjectNode().put("appName", app).put("userId", "load").put("sessionId", sessionId)
                .put("streaming", true).set("newMessage", JSON.readTree("{\"role\":\"user\",\"parts\":[{\"text\":"
                        + JSON.writeValueAsString(message) + "}]}")).toString();
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(base.resolve("run_sse"))
                .timeout(Duration.ofMinutes(2)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("run_sse answered " + response.statusCode());
        }
        int chunks = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith("data:")) {
                    continue;
                }
                long at = System.nanoTime();
                JsonNode event = JSON.readTree(line.substring(5));
                if (event.has("error")) {
                    throw new IllegalStateException(event.path("error").toString());
                }
                if (event.path("partial").asBoolean(false)) {
                    chunk.chunk(at, event.at("/content/parts/0/text").asText());
                    chunks++;
                }
            }
        }
        return chunks;
    }

    @Override
    public void close() {
    }
}
