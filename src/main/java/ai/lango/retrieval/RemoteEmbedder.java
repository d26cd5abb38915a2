package ai.lango.retrieval;

import ai.lango.net.http.HttpPeers;
import ai.lango.net.http.LimitedBody;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedding model behind HTTP: OpenAI's {@code /embeddings} (OpenAI, Ollama and any compatible
 * server) or Gemini's {@code batchEmbedContents}. The key travels in a header, never in the URL.
 */
public final class RemoteEmbedder implements Embedder {

    /** The two wire formats. */
    public enum Wire { OPENAI, GEMINI }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** A batch's vectors take a few MiB at most; a larger answer is not read into memory. */
    static final int MAX_ANSWER_BYTES = 64 * 1024 * 1024;
    /** The most of an error answer put into a message. */
    static final int EXCERPT_LIMIT = 300;

    private final String provider;
    private final Wire wire;
    private final String baseUrl;
    private final String model;
    private final String apiKey;
    private final HttpClient http = HttpPeers.client(Duration.ofSeconds(10), HttpClient.Redirect.NEVER);

    public RemoteEmbedder(String provider, Wire wire, String baseUrl, String model, String apiKey) {
        this.provider = provider;
        this.wire = wire;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.model = model;
        this.apiKey = apiKey;
    }

    @Override
    public String model() {
        return provider + "/" + model;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        HttpRequest.Builder request = HttpRequest.newBuilder().timeout(TIMEOUT).header("Content-Type", "application/json");
        ObjectNode body = JSON.createObjectNode();
        if (wire == Wire.OPENAI) {
            request.uri(URI.create(baseUrl + "/embeddings"));
            if (apiKey != null) {
                request.header("Authorization", "Bearer " + apiKey);
            }
            body.put("model", model);
            ArrayNode input = body.putArray("input");
            texts.forEach(input::add);
        } else {
            request.uri(URI.create(baseUrl + "/v1beta/models/" + model + ":batchEmbedContents"));
            if (apiKey != null) {
                request.header("x-goog-api-key", apiKey);
            }
            ArrayNode requests = body.putArray("requests");
            for (String text : texts) {
                ObjectNode one = requests.addObject().put("model", "models/" + model);
                one.putObject("content").putArray("parts").addObject().put("text", text);
            }
        }
        JsonNode answer = send(request.POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
        List<float[]> vectors = new ArrayList<>();
        JsonNode items = wire == Wire.OPENAI ? answer.path("data") : answer.path("embeddings");
        for (JsonNode item : items) {
            JsonNode values = wire == Wire.OPENAI ? item.path("embedding") : item.path("values");
            float[] v = new float[values.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) values.get(i).asDouble();
            }
            vectors.add(Vectors.normalized(v));
        }
        if (vectors.size() != texts.size()) {
            throw new IllegalStateException("the embedding model " + model() + " returned " + vectors.size()
                    + " vectors for " + texts.size() + " texts");
        }
        return vectors;
    }

    private JsonNode send(HttpRequest request) {
        try {
            HttpResponse<byte[]> response = http.send(request, LimitedBody.handler(MAX_ANSWER_BYTES));
            String text = new String(response.body(), StandardCharsets.UTF_8);
            if (response.statusCode() / 100 != 2) {
                // the key scrubbed: some servers quote the key they refused
                throw new IllegalStateException("the embedding model " + model() + " answered HTTP " + response.statusCode()
                        + ": " + HttpPeers.excerpt(text, EXCERPT_LIMIT, apiKey));
            }
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("the embedding model " + model() + " could not be reached: "
                    + HttpPeers.scrub(e.getMessage(), apiKey), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while embedding", e);
        }
    }
}
