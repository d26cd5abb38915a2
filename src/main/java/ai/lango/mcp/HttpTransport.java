package ai.lango.mcp;

import ai.lango.masking.MaskedLogs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * A server over streamable HTTP (MCP 2025-03-26 on): each message is POSTed; the server answers with
 * 202, one JSON message, or a stream of server-sent events that carries the answer (and requests
 * and notifications before it). The session id the server gives goes with every later request, the
 * agreed protocol version too. A stream that ends before the answer came is taken up again with a
 * GET carrying the last event's id, after the {@code retry} the server asked for (SEP-1699). Once
 * initialized, a GET stream listens for what the server sends on its own (a changed tool list),
 * opened again at most once a second, less often while it keeps ending at once; a server that
 * offers none answers 405.
 */
final class HttpTransport implements McpTransport {

    private static final Logger LOG = MaskedLogs.of(HttpTransport.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
    /** The shortest pause before the listening stream is opened again, whatever the server's retry says. */
    private static final Duration MIN_RECONNECT = Duration.ofSeconds(1);
    private static final Duration MAX_RECONNECT = Duration.ofMinutes(1);
    /** A listening stream that lasted this long was no quick failure: the pause after it starts again at the shortest. */
    private static final Duration STEADY = Duration.ofSeconds(10);
    /** Resumptions of one stream at most before its answer counts as lost. */
    private static final int MAX_RESUMES = 5;

    private final String server;
    private final URI url;
    private final Map<String, String> headers;
    private final HttpClient http;
    private final Set<String> unanswered = ConcurrentHashMap.newKeySet();
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile String lastEventId;
    private volatile long retryMillis = DEFAULT_RETRY.toMillis();
    private volatile boolean closed;
    private Consumer<JsonNode> inbound;
    private Consumer<String> ended;

    HttpTransport(String server, URI url, Map<String, String> headers, HttpClient http) {
        this.server = server;
        this.url = url;
        this.headers = Map.copyOf(headers);
        this.http = http;
    }

    @Override
    public void start(Consumer<JsonNode> inbound, Consumer<String> ended) {
        this.inbound = message -> {
            if (message.has("id") && (message.has("result") || message.has("error"))) {
                unanswered.remove(message.get("id").toString());
            }
            inbound.accept(message);
        };
        this.ended = ended;
    }

    @Override
    public void agreed(String version) {
        protocolVersion = version;
        Thread listener = new Thread(this::listen, "mcp-" + server + "-listen");
        listener.setDaemon(true);
        listener.start();
    }

    private HttpRequest.Builder request(URI target) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofMinutes(30));
        headers.forEach(request::header);
        Optional.ofNullable(sessionId).ifPresent(id -> request.header("Mcp-Session-Id", id));
        Optional.ofNullable(protocolVersion).ifPresent(version -> request.header("MCP-Protocol-Version", version));
        ai.lango.telemetry.Telemetry.inject(request::header); // the tool call's span, for a server that traces
        return request;
    }

    @Override
    public void send(JsonNode message) throws IOException {
        if (closed) {
            throw new IOException("the connection is closed");
        }
        String id = message.has("id") && message.has("method") ? message.get("id").toString() : null;
        if (id != null) {
            unanswered.add(id);
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(request(url).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(message.toString())).build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        response.headers().firstValue("Mcp-Session-Id").ifPresent(given -> sessionId = given);
        int status = response.statusCode();
        if (status == 404 && sessionId != null && !"initialize".equals(message.path("method").asText())) {
            drain(response);
            end("the server no longer knows this session (404)");
            throw new IOException("the server's session ended");
        }
        if (status >= 400) {
            String body = bounded(response.body(), 2000);
            throw new IOException("the server answered HTTP " + status + (body.isBlank() ? "" : ": " + body.strip()));
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (status == 202 || status == 204) {
            drain(response);
        } else if (type.startsWith("text/event-stream")) {
            Thread stream = new Thread(() -> readStream(response.body(), id, 0), "mcp-" + server + "-stream");
            stream.setDaemon(true);
            stream.start();
        } else {
            deliver(bounded(response.body(), MAX_MESSAGE_CHARS + 1));
        }
    }

    /** A JSON body: one message, or a batch of them. */
    private void deliver(String body) throws IOException {
        if (body.length() > MAX_MESSAGE_CHARS) {
            throw new IOException("the server answered with more than " + MAX_MESSAGE_CHARS + " characters");
        }
        if (body.isBlank()) {
            return;
        }
        JsonNode answer = JSON.readTree(body);
        if (answer.isArray()) {
            answer.forEach(inbound);
        } else {
            inbound.accept(answer);
        }
    }

    /** The events of one stream; when it ends before request {@code id} was answered, it is taken up again. */
    private void readStream(InputStream body, String id, int resumes) {
        try (body) {
            SseEvents.read(body, event -> {
                if (event.id() != null) {
                    lastEventId = event.id();
                }
                if (event.retry() >= 0) {
                    retryMillis = event.retry();
                }
                if (!event.data().isBlank()) {
                    try {
                        deliver(event.data());
                    } catch (IOException e) {
                        LOG.warning(() -> "MCP server \"" + server + "\" sent an event that is not JSON-RPC: " + e.getMessage());
                    }
                }
            });
        } catch (IOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": a stream ended: " + e.getMessage());
        }
        if (id != null && unanswered.contains(id) && !closed) {
            resume(id, resumes + 1);
        }
    }

    /** Takes up a stream that ended before its answer, after the retry the server asked for. */
    private void resume(String id, int resumes) {
        if (resumes > MAX_RESUMES) {
            return; // the call's own timeout reports it
        }
        try {
            Thread.sleep(retryMillis);
            HttpRequest.Builder get = request(url).header("Accept", "text/event-stream").GET();
            Optional.ofNullable(lastEventId).ifPresent(last -> get.header("Last-Event-ID", last));
            HttpResponse<InputStream> response = http.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                drain(response);
                return;
            }
            readStream(response.body(), id, resumes);
        } catch (IOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": resuming a stream failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The stream of what the server sends on its own, kept open while the session lasts. Between attempts the
     * server's retry, but never less than {@link #MIN_RECONNECT}: a stream that ended within {@link #STEADY} (or an
     * attempt that failed) doubles that pause, up to {@link #MAX_RECONNECT}, so that a server asking for
     * {@code retry: 0} is not called in a loop; a stream that lasted starts it over.
     */
    private void listen() {
        int failures = 0;
        long pause = MIN_RECONNECT.toMillis();
        while (!closed && failures < 5) {
            long opened = System.nanoTime();
            try {
                HttpRequest.Builder get = request(url).header("Accept", "text/event-stream").GET();
                HttpResponse<InputStream> response = http.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() == 405 || response.statusCode() == 404 || response.statusCode() == 400) {
                    drain(response);
                    return; // the server sends nothing on its own
                }
                if (response.statusCode() != 200) {
                    drain(response);
                    failures++;
                } else {
                    failures = 0;
                    readStream(response.body(), null, 0);
                }
            } catch (IOException e) {
                failures++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (System.nanoTime() - opened >= STEADY.toNanos()) {
                pause = MIN_RECONNECT.toMillis();
            }
            try {
                Thread.sleep(Math.max(retryMillis, pause));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pause = Math.min(pause * 2, MAX_RECONNECT.toMillis());
        }
    }

    private void end(String why) {
        if (!closed) {
            close();
            ended.accept(why);
        }
    }

    private static String bounded(InputStream body, int max) throws IOException {
        try (body) {
            byte[] bytes = body.readNBytes(max);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void drain(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // nothing to read
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (sessionId != null) {
            http.sendAsync(request(url).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        }
    }
}
