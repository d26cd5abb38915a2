package ai.lango.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A Lango /ws chat session (docs/contract.md): chat.message requests, agent.chunk events, one response. */
final class WebSocketDriver implements Driver {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A frame and when it arrived. */
    private record Frame(long at, JsonNode json) {
    }

    private final String sessionKey;
    private final WebSocket socket;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private int requests;

    WebSocketDriver(HttpClient http, URI ws, String sessionKey) throws Exception {
        this.sessionKey = sessionKey;
        this.socket = http.newWebSocketBuilder().buildAsync(ws, new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                long at = System.nanoTime();
                partial.append(data);
                if (last) {
                    try {
                        frames.add(new Frame(at, JSON.readTree(partial.toString())));
                    } catch (Exception e) {
                        frames.add(new Frame(at, JSON.createObjectNode().put("type", "broken")));
                    }
                    partial.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                // A turn waiting for frames fails at once, saying why, rather than after its timeout.
                frames.add(new Frame(System.nanoTime(), JSON.createObjectNode().put("type", "closed")
                        .put("reason", "closed by the server: " + statusCode + " " + reason)));
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                frames.add(new Frame(System.nanoTime(), JSON.createObjectNode().put("type", "closed")
                        .put("reason", "connection failed: " + error)));
            }
        }).get(30, TimeUnit.SECONDS);
    }

    @Override
    public int turn(String message, Chunks chunk) throws Exception {
        String id = sessionKey + "-" + (++requests);
        socket.sendText(JSON.createObjectNode().put("type", "request").put("id", id).put("method", "chat.message")
                .set("params", JSON.createObjectNode().put("sessionKey", sessionKey).put("message", message)).toString(), true)
                .get(30, TimeUnit.SECONDS);
        int chunks = 0;
        while (true) {
            Frame frame = frames.poll(120, TimeUnit.SECONDS);
            if (frame == null) {
                throw new IllegalStateException("no frame within 120 s");
            }
            String type = frame.json().path("type").asText();
            if ("event".equals(type) && "agent.chunk".equals(frame.json().path("event").asText())) {
                chunk.chunk(frame.at(), frame.json().path("payload").path("chunk").asText());
                chunks++;
            } else if ("closed".equals(type)) {
                throw new IllegalStateException(frame.json().path("reason").asText());
            } else if ("response".equals(type)) {
                if (frame.json().has("error")) {
                    throw new IllegalStateException(frame.json().path("error").toString());
                }
                return chunks;
            }
        }
    }

    @Override
    public void close() {
        socket.abort();
    }
}
