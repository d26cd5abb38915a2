package ai.lango.mcp;

import ai.lango.masking.MaskedLogs;
import ai.lango.net.http.HttpPeers;
import ai.lango.net.jsonrpc.JsonRpc;
import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
    /** The most of an error answer's body put into a message. */
    private static final int ERROR_EXCERPT = 2000;
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
            if (JsonRpc.isResponse(message)) {
                unanswered.remove(JsonRpc.key(message.get("id")));
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
        Optional.ofNullable(sessionId).ifPresent(id -> request.header(McpProtocol.SESSION_HEADER, id));
        Optional.ofNullable(protocolVersion).ifPresent(version -> request.header(McpProtocol.VERSION_HEADER, version));
        return HttpPeers.traced(request); // the tool call's span, for a server that traces
    }

    @Override
    public void send(JsonNode message) throws IOException {
        if (closed) {
            throw new IOException("the connection is closed");
        }
        String id = JsonRpc.isRequest(message) ? JsonRpc.key(message.get("id")) : null;
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
        response.headers().firstValue(McpProtocol.SESSION_HEADER).ifPresent(given -> sessionId = given);
        int status = response.statusCode();
        if (status == 404 && sessionId != null && !"initialize".equals(message.path("method").asText())) {
            drain(response);
            end("the server no longer knows this session (404)");
            throw new IOException("the server's session ended");
        }
        if (status >= 400) {
            String body = HttpPeers.excerpt(HttpPeers.read(response.body(), ERROR_EXCERPT), ERROR_EXCERPT,
                    headers.values().toArray(String[]::new));
            throw new IOException("the server answered HTTP " + status + (body.isEmpty() ? "" : ": " + body));
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (status == 202 || status == 204) {
            drain(response);
        } else if (type.startsWith("text/event-stream")) {
            Thread stream = new Thread(() -> readStream(response.body(), id, 0), "mcp-" + server + "-stream");
            stream.setDaemon(true);
            stream.start();
        } else {
            deliver(HttpPeers.read(response.body(), MAX_MESSAGE_CHARS + 1));
        }
    }

    /** A JSON body: one message, or a batch of them. */
    private void deliver(String body) throws IOException {
        if (body.length() > MAX_MESSAGE_CHARS) {
            throw new IOException("the server answered with more than " + MAX_MESSAGE_CHARS + " characters");
        }
        JsonRpc.readAll(body).forEach(inbound);
    }

    /** The events of one stream; when it ends before request {@code id} was answered, it is taken up again. */
    private void readStream(InputStream body, String id, int resumes) {
        SseReader events = new SseReader(body, MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS);
        try (events) {
            SseReader.Event event;
            while ((event = events.next()) != null) {
                remember(events);
                if (!event.data().isBlank()) {
                    try {
                        deliver(event.data());
                    } catch (IOException e) {
                        LOG.warning(() -> "MCP server \"" + server + "\" sent an event that is not JSON-RPC: " + e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": a stream ended: " + e.getMessage());
        } finally {
            remember(events);
        }
        if (id != null && unanswered.contains(id) && !closed) {
            resume(id, resumes + 1);
        }
    }

    /** The id to resume from and the retry a stream gave last (with an event, or without data: a priming event). */
    private void remember(SseReader events) {
        if (events.lastEventId() != null) {
            lastEventId = events.lastEventId();
        }
        if (events.retry() >= 0) {
            retryMillis = events.retry();
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
