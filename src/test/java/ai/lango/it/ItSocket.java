package ai.lango.it;

import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A /ws client for integration tests: sends frames, collects the frames the server sends. */
final class ItSocket implements AutoCloseable {

    private static final ObjectMapper JSON = TestJson.MAPPER;

    final WebSocket socket;
    private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    /** When each frame arrived (System.nanoTime), frame by frame in the order of {@link #frames}. */
    private final BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
    private final java.util.concurrent.CompletableFuture<Integer> closed = new java.util.concurrent.CompletableFuture<>();

    private ItSocket(URL base) throws Exception {
        URI ws = URI.create(base.toString().replaceFirst("^http", "ws") + "ws");
        socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(ws, new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    try {
                        JsonNode frame = JSON.readTree(partial.toString());
                        synchronized (frames) {
                            arrivals.add(System.nanoTime());
                            frames.add(frame);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    partial.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closed.complete(-1);
            }
        }).get(10, TimeUnit.SECONDS);
    }

    static ItSocket connect(URL base) throws Exception {
        return new ItSocket(base);
    }

    void send(String frame) {
        socket.sendText(frame, true).join();
    }

    JsonNode next() throws InterruptedException {
        return nextTimed().frame();
    }

    /** A frame and when it arrived (System.nanoTime). */
    record Timed(JsonNode frame, long arrivedNanos) {
    }

    Timed nextTimed() throws InterruptedException {
        JsonNode frame = frames.poll(60, TimeUnit.SECONDS);
        if (frame == null) {
            throw new AssertionError("no frame within 60 s");
        }
        return new Timed(frame, arrivals.take());
    }

    /** The close code the server sent, waiting up to {@code seconds}; null when it has not closed. */
    Integer closeCode(int seconds) throws InterruptedException {
        try {
            return closed.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return null;
        }
    }

    /** The frames received and not yet taken, without waiting for more. */
    List<JsonNode> drain() {
        List<JsonNode> taken = new ArrayList<>();
        synchronized (frames) {
            frames.drainTo(taken);
            arrivals.clear();
        }
        return taken;
    }

    /** Frames up to and including the response to the request. */
    List<JsonNode> untilResponse() throws InterruptedException {
        List<JsonNode> seen = new ArrayList<>();
        JsonNode frame;
        do {
            frame = next();
            seen.add(frame);
        } while (!"response".equals(frame.path("type").asText()));
        return seen;
    }

    /** The events of these frames with the given name. */
    static List<JsonNode> events(List<JsonNode> frames, String name) {
        return frames.stream().filter(f -> "event".equals(f.path("type").asText()) && name.equals(f.path("event").asText()))
                .map(f -> f.path("payload")).toList();
    }

    static String chat(String id, String sessionKey, String message) {
        return "{\"type\":\"request\",\"id\":\"" + id + "\",\"method\":\"chat.message\",\"params\":{\"sessionKey\":\""
                + sessionKey + "\",\"message\":\"" + message + "\"}}";
    }

    @Override
    public void close() {
        socket.abort();
    }
}
