package ai.lango.mcp;

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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A server over the legacy HTTP+SSE transport (MCP 2024-11-05): one GET stream carries everything
 * the server sends, its first event ({@code endpoint}) names where to POST messages — on the server's
 * own origin, or the connection ends with nothing sent — and each POST is answered 202 with the
 * answer coming on the stream.
 */
final class SseTransport implements McpTransport {

    private static final Duration ENDPOINT_WAIT = Duration.ofSeconds(15);

    private final String server;
    private final URI url;
    private final Map<String, String> headers;
    private final HttpClient http;
    private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
    private volatile InputStream stream;
    private volatile boolean closed;

    SseTransport(String server, URI url, Map<String, String> headers, HttpClient http) {
        this.server = server;
        this.url = url;
        this.headers = Map.copyOf(headers);
        this.http = http;
    }

    @Override
    public void start(Consumer<JsonNode> inbound, Consumer<String> ended) throws IOException {
        HttpRequest.Builder get = HttpRequest.newBuilder(url).header("Accept", "text/event-stream").GET();
        headers.forEach(get::header);
        HttpResponse<InputStream> response;
        try {
            response = http.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (response.statusCode() != 200) {
            response.body().close();
            throw new IOException("the server's event stream answered HTTP " + response.statusCode());
        }
        stream = response.body();
        Thread reader = new Thread(() -> {
            String why = "the server's event stream ended";
            try (SseReader events = new SseReader(stream, MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS)) {
                SseReader.Event event;
                while ((event = events.next()) != null) {
                    if ("endpoint".equals(event.event())) {
                        try {
                            endpoint.complete(endpointOf(url, event.data()));
                        } catch (IOException elsewhere) {
                            why = elsewhere.getMessage();
                            break;
                        }
                    } else if (!event.data().isBlank()) {
                        try {
                            JsonRpc.readAll(event.data()).forEach(inbound);
                        } catch (IOException notJson) {
                            // a server's keep-alive or noise: skipped
                        }
                    }
                }
            } catch (IOException e) {
                why = "the server's event stream broke: " + e.getMessage();
            }
            if (!closed) {
                closed = true;
                endpoint.completeExceptionally(new IOException(why));
                ended.accept(why);
            }
        }, "mcp-" + server + "-sse");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Where the server's {@code endpoint} event says to POST, resolved against its URL: on the server's own origin
     * (scheme, host, port) only, since every POST carries the headers resolved for this server (its secrets).
     */
    private static URI endpointOf(URI server, String named) throws IOException {
        URI target;
        try {
            target = server.resolve(named.strip());
        } catch (IllegalArgumentException e) {
            throw new IOException("the server named an endpoint that is not a URI");
        }
        if (!origin(target).equals(origin(server))) {
            throw new IOException("the server named an endpoint on another origin (" + origin(target) + ") than its own ("
                    + origin(server) + "): nothing is sent there");
        }
        return target;
    }

    private static String origin(URI uri) {
        String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
        return scheme + "://" + String.valueOf(uri.getHost()).toLowerCase(Locale.ROOT) + ":" + port;
    }

    @Override
    public void send(JsonNode message) throws IOException {
        URI target;
        try {
            target = endpoint.get(ENDPOINT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("the server named no endpoint within " + ENDPOINT_WAIT.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        HttpRequest.Builder post = HttpRequest.newBuilder(target).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        headers.forEach(post::header);
        HttpPeers.traced(post); // the tool call's span, for a server that traces
        try {
            HttpResponse<Void> response = http.send(post.build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() >= 400) {
                throw new IOException("the server answered HTTP " + response.statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        InputStream open = stream;
        if (open != null) {
            try {
                open.close();
            } catch (IOException ignored) {
                // closed already
            }
        }
    }
}
