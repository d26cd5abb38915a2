package ai.lango.net.http;

import ai.lango.telemetry.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What Lango's HTTP clients share: how a client is built, the trace context for a peer trusted with
 * it, bounded reads of a body, and excerpts of what a peer said that are fit for a message. The
 * bodies themselves: {@link IdleTimeoutBody} (a stream whose every read is bounded) and {@link
 * LimitedBody} (a whole body up to a size).
 */
public final class HttpPeers {

    private static final String SCRUBBED = "****";

    private HttpPeers() {
    }

    /**
     * A client over HTTP/1.1 — no h2c upgrade attempt against a plain-http peer (Ollama, a local chain), and closing
     * a body closes the one connection it runs on — that connects within {@code connect} and follows redirects as
     * {@code redirects} says.
     */
    public static HttpClient client(Duration connect, HttpClient.Redirect redirects) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connect).followRedirects(redirects)
                .build();
    }

    /** The same, with every connection through the HTTP proxy at {@code proxy} (the egress proxy). */
    public static HttpClient client(Duration connect, HttpClient.Redirect redirects, InetSocketAddress proxy) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connect).followRedirects(redirects)
                .proxy(ProxySelector.of(proxy)).build();
    }

    /**
     * The request with the W3C trace context of the current span ({@code traceparent}), for a peer Lango is
     * configured to call (a model provider, an MCP server, a remote agent), so that one that traces joins the trace.
     */
    public static HttpRequest.Builder traced(HttpRequest.Builder request) {
        Telemetry.inject(request::header);
        return request;
    }

    /** At most {@code max} bytes of a body, as UTF-8 text; the body is closed. */
    public static String read(InputStream body, int max) throws IOException {
        try (body) {
            return new String(body.readNBytes(max), StandardCharsets.UTF_8);
        }
    }

    /**
     * A peer's text fit for a message: white space folded, each of {@code secrets} (the key or headers sent to it,
     * which some peers echo) replaced by "****", at most {@code limit} characters (ending in "…" when cut); "" for
     * none.
     */
    public static String excerpt(String text, int limit, String... secrets) {
        if (text == null || text.isBlank()) {
            return "";
        }
        String folded = scrub(text.strip().replaceAll("\\s+", " "), secrets);
        return folded.length() <= limit ? folded : folded.substring(0, limit - 1) + "…";
    }

    /** {@code text} with each of {@code secrets} replaced by "****". */
    public static String scrub(String text, String... secrets) {
        if (text == null) {
            return null;
        }
        String scrubbed = text;
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) {
                scrubbed = scrubbed.replace(secret, SCRUBBED);
            }
        }
        return scrubbed;
    }

    /** Scheme, host and port only: where a request went, without the path or query, which may carry a key. */
    public static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }

    /** "8 MiB", "64 KiB", "1000 bytes". */
    static String size(int bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
