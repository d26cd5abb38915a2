package ai.lango.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ai.lango.net.http.HttpPeers;
import ai.lango.net.http.IdleTimeoutBody;
import ai.lango.turn.TurnAbort;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What every provider does the same way: POST a JSON body, map a failed status or a failed
 * connection to a {@link ProviderException}, and read the streamed body under the idle limit.
 *
 * <p>Every message built here passes through {@link #scrub}, so even a provider that echoes the
 * key back in its error body cannot put it into an exception.
 */
final class HttpTransport {

    static final ObjectMapper JSON = new ObjectMapper();

    /** Longest excerpt of a provider's error message put into an exception. */
    static final int EXCERPT_LIMIT = 300;

    /** Error bodies are small; more than this is not worth reading for an excerpt. */
    private static final int ERROR_BODY_LIMIT = 64 * 1024;

    private final ProviderSettings settings;
    private final HttpClient client;

    HttpTransport(ProviderSettings settings) {
        this.settings = settings;
        this.client = HttpPeers.client(settings.connectTimeout(), HttpClient.Redirect.NEVER);
    }

    String id() {
        return settings.id();
    }

    ProviderSettings settings() {
        return settings;
    }

    /** The base URL with {@code path} appended, whether or not the base ends in "/". */
    URI resolve(String path) {
        String base = settings.baseUrl().toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + (path.startsWith("/") ? path : "/" + path));
    }

    /**
     * Sends the body and returns the streamed answer once the provider accepted the request (2xx).
     * The caller owns the returned stream and must close it.
     */
    InputStream post(URI uri, Map<String, String> headers, String jsonBody, TurnAbort abort) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                // Bounds the wait for the response headers; the body is bounded by IdleTimeoutBody.
                .timeout(settings.readTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
        headers.forEach(request::header);
        HttpPeers.traced(request); // the model call's span, for a provider that traces

        HttpResponse<InputStream> response;
        // Sent asynchronously so that a turn stopped (or timed out) while the provider has not answered yet ends that
        // wait at once, not when the headers come: the call's abort ends it.
        java.util.concurrent.CompletableFuture<HttpResponse<InputStream>> pending =
                client.sendAsync(request.build(), IdleTimeoutBody.handler(settings.readTimeout()));
        try (TurnAbort.Registration ending = abort.onAbort(() -> pending.cancel(true))) {
            response = pending.get();
        } catch (java.util.concurrent.CancellationException e) {
            throw failure(ProviderException.Kind.BROKEN_STREAM, "request to " + where(uri) + " was stopped with its turn", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.util.concurrent.CancellationException || pending.isCancelled()
                    || abort.aborted()) {
                // the client's own cancellation of the exchange, reported through the future
                throw failure(ProviderException.Kind.BROKEN_STREAM, "request to " + where(uri) + " was stopped with its turn", cause);
            }
            if (cause instanceof HttpConnectTimeoutException) {
                throw failure(ProviderException.Kind.TIMEOUT, "could not connect to " + where(uri) + " within "
                        + settings.connectTimeout().toMillis() + " ms", cause);
            }
            if (cause instanceof HttpTimeoutException) {
                throw failure(ProviderException.Kind.TIMEOUT, "did not answer within "
                        + settings.readTimeout().toMillis() + " ms (" + where(uri) + ")", cause);
            }
            if (cause instanceof ConnectException) {
                throw failure(ProviderException.Kind.CONNECTION, "could not connect to " + where(uri)
                        + reason((IOException) cause), cause);
            }
            if (cause instanceof IOException io) {
                throw failure(ProviderException.Kind.CONNECTION, "request to " + where(uri) + " failed" + reason(io), cause);
            }
            throw failure(ProviderException.Kind.CONNECTION, "request to " + where(uri) + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            throw failure(ProviderException.Kind.CONNECTION, "request to " + where(uri) + " was interrupted", e);
        }

        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        String body;
        try {
            body = HttpPeers.read(response.body(), ERROR_BODY_LIMIT);
        } catch (IOException e) {
            body = "";
        }
        throw statusFailure(status, body, retryAfter(response.headers().firstValue("retry-after").orElse(null)));
    }

    /**
     * Retry-After as a duration: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent,
     * unreadable or already past.
     */
    static Duration retryAfter(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException notSeconds) {
            try {
                Duration until = Duration.between(java.time.Instant.now(),
                        java.time.ZonedDateTime.parse(value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                return until.isNegative() ? null : until.withNanos(0);
            } catch (java.time.format.DateTimeParseException notADate) {
                return null;
            }
        }
    }

    /** The exception for a non-2xx answer. */
    ProviderException statusFailure(int status, String body) {
        return statusFailure(status, body, null);
    }

    /** The exception for a non-2xx answer, with the wait the provider asked for. */
    ProviderException statusFailure(int status, String body, Duration retryAfter) {
        String id = settings.id();
        String code = errorCode(body).orElse(null);
        if (status == 401 || status == 403) {
            // No excerpt here: providers quote (parts of) the rejected key in these bodies.
            String message = settings.apiKey() == null
                    ? id + " requires an API key (HTTP " + status + "); set " + settings.apiKeyConfigKey()
                    : id + " rejected the API key (HTTP " + status + "); check " + settings.apiKeyConfigKey();
            return failure(ProviderException.Kind.AUTHENTICATION, message, null, null, status, code);
        }
        String excerpt = excerpt(body);
        String suffix = excerpt.isEmpty() ? "" : ": " + excerpt;
        if (status == 429) {
            return failure(ProviderException.Kind.RATE_LIMITED, id + " rate limit reached (HTTP 429)" + suffix, null,
                    retryAfter, status, code);
        }
        if (status >= 500) {
            return failure(ProviderException.Kind.SERVER_ERROR,
                    id + " server error (HTTP " + status + ")" + suffix, null, retryAfter, status, code);
        }
        return failure(ProviderException.Kind.BAD_REQUEST, id + " rejected the request (HTTP " + status + ")" + suffix,
                null, null, status, code);
    }

    /** The exception for a body that could not be read to its end. */
    ProviderException streamFailure(IOException e) {
        if (e instanceof IdleTimeoutBody.IdleTimeoutException) {
            return failure(ProviderException.Kind.TIMEOUT, settings.id() + " sent nothing for "
                    + settings.readTimeout().toMillis() + " ms while streaming; the answer is incomplete", e);
        }
        return failure(ProviderException.Kind.BROKEN_STREAM, settings.id()
                + " stream broke before the answer was complete" + reason(e), e);
    }

    /** A failure reported inside the stream (an error event or chunk), after the status was 2xx. */
    ProviderException streamedError(ProviderException.Kind kind, JsonNode error) {
        return failure(kind, settings.id() + " reported an error while streaming: " + excerpt(error.toString()), null,
                null, 0, errorCode(error.toString()).orElse(null));
    }

    /** Every ProviderException of a provider is built here, so every message is scrubbed. */
    ProviderException failure(ProviderException.Kind kind, String message, Throwable cause) {
        return failure(kind, message, cause, null, 0, null);
    }

    private ProviderException failure(ProviderException.Kind kind, String message, Throwable cause, Duration retryAfter,
                                      int status, String code) {
        return new ProviderException(settings.id(), kind, scrub(message), cause, retryAfter, status, code);
    }

    /** A short error code or type from an error body: OpenAI's error.code or error.type, Anthropic's error.type, Gemini's error.status. */
    static Optional<String> errorCode(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.isArray() && node.size() > 0) {
                node = node.get(0);
            }
            JsonNode error = node == null ? null : node.path("error");
            if (error == null || !error.isObject()) {
                return Optional.empty();
            }
            for (String field : new String[] {"code", "type", "status"}) {
                String value = error.path(field).asText("");
                if (value.matches("[A-Za-z0-9_.-]{1,64}") && !value.matches("\\d+")) { // a number is the status again
                    return Optional.of(value);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: no code
        }
        return Optional.empty();
    }

    /** The provider's own error message from an error body, shortened. */
    String excerpt(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        return HttpPeers.excerpt(errorMessage(body).orElse(body), EXCERPT_LIMIT, settings.apiKey());
    }

    /** OpenAI, Anthropic and Gemini say {"error":{"message":..}}; Ollama may say {"error":".."}. */
    private static Optional<String> errorMessage(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null) {
                return Optional.empty();
            }
            if (node.isArray() && node.size() > 0) {
                node = node.get(0); // Gemini streams sometimes wrap the error in an array
            }
            JsonNode error = node.path("error");
            if (error.isTextual()) {
                return Optional.of(error.asText());
            }
            if (error.path("message").isTextual()) {
                return Optional.of(error.path("message").asText());
            }
            if (node.path("message").isTextual()) {
                return Optional.of(node.path("message").asText());
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: the raw text is the excerpt
        }
        return Optional.empty();
    }

    String scrub(String text) {
        return HttpPeers.scrub(text, settings.apiKey());
    }

    private static String where(URI uri) {
        return HttpPeers.origin(uri);
    }

    private String reason(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? " (" + e.getClass().getSimpleName() + ")" : " (" + scrub(m) + ")";
    }

}
