package ai.lango.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * A small A2A v0.3 client over JSON-RPC: reads an agent card and sends a text message, returning the
 * answer's text. Plain {@code java.net.http}; thread-safe, so one instance serves every remote agent.
 * Every failure is an {@link A2aException} whose message names the URL or the remote agent and what
 * went wrong.
 */
public final class A2aClient {

    /** Larger answers are refused rather than read into memory. */
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;
    /** Longest excerpt of a remote error body put into a message. */
    static final int EXCERPT_LIMIT = 300;
    /** How often a task that a remote agent left running is asked after. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    private final Duration timeout;
    private final HttpClient http;

    /**
     * @param timeout the most one call may take: fetching a card, or sending a message until its
     *                answer is complete (the remote agent's whole turn)
     */
    public A2aClient(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("the A2A client timeout must be positive, not " + timeout);
        }
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                // HTTP/1.1: no h2c upgrade attempt against plain-http agents.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /**
     * Reads the agent card at {@code cardUrl} (e.g. {@code http://host/.well-known/agent-card.json}).
     * The card returned has its {@code url} made absolute and pointing at the agent's JSON-RPC
     * endpoint (which may have been one of its additional interfaces), and a description ("" if none).
     */
    public AgentCard fetchCard(URI cardUrl) throws A2aException {
        Objects.requireNonNull(cardUrl, "cardUrl");
        String where = "the A2A agent card at " + cardUrl;
        requireHttp(cardUrl, "cannot fetch " + where + ": only http:// and https:// URLs are supported");
        HttpRequest request = HttpRequest.newBuilder(cardUrl).timeout(timeout).header("Accept", "application/json")
                .GET().build();
        Reply reply = exchange(request, deadline(), "cannot fetch " + where);
        if (!reply.ok()) {
            throw new A2aException("cannot fetch " + where + ": HTTP " + reply.status() + excerpt(reply.body()));
        }
        AgentCard card;
        try {
            card = A2aJson.MAPPER.readValue(reply.body(), AgentCard.class);
        } catch (JsonProcessingException e) {
            throw new A2aException(where + " is not a valid agent card: " + e.getOriginalMessage(), e);
        }
        if (card == null) {
            throw new A2aException(where + " is empty");
        }
        if (card.name() == null || card.name().isBlank()) {
            throw new A2aException(where + " has no name");
        }
        String endpoint = card.jsonRpcUrl().orElseThrow(() -> new A2aException(where + " (agent \"" + card.name()
                + "\") offers no JSON-RPC endpoint" + (card.preferredTransport() == null ? ""
                : "; its preferred transport is " + card.preferredTransport())));
        URI absolute;
        try {
            absolute = cardUrl.resolve(new URI(endpoint.trim()));
        } catch (URISyntaxException e) {
            throw new A2aException(where + " (agent \"" + card.name() + "\") has an invalid url \"" + endpoint + "\"");
        }
        requireHttp(absolute, where + " (agent \"" + card.name() + "\") has the url \"" + endpoint
                + "\", which is not an http:// or https:// URL");
        return new AgentCard(card.name(), card.description() == null ? "" : card.description(), absolute.toString(),
                card.version(), card.protocolVersion(), A2aProtocol.TRANSPORT_JSONRPC, card.capabilities(),
                card.defaultInputModes(), card.defaultOutputModes(), card.skills(), card.additionalInterfaces(),
                card.securitySchemes(), card.security());
    }

    /**
     * Sends {@code text} as a user message ({@code message/send}, blocking) to the agent of
     * {@code card} and returns its answer's text: the text of a message answer, or of a task's
     * artifacts (its status message when it has none). A task the agent leaves running is asked
     * after until it ends or the timeout passes.
     *
     * @param contextId the conversation on the remote side; null lets the remote agent start one
     */
    public String send(AgentCard card, String contextId, String text) throws A2aException {
        Objects.requireNonNull(card, "card");
        Objects.requireNonNull(text, "text");
        String agent = "remote agent \"" + (card.name() == null ? "?" : card.name()) + "\"";
        String endpoint = card.jsonRpcUrl().orElseThrow(() -> new A2aException(agent + " offers no JSON-RPC endpoint"));
        URI uri;
        try {
            uri = new URI(endpoint.trim());
        } catch (URISyntaxException e) {
            throw new A2aException(agent + " has an invalid url \"" + endpoint + "\"");
        }
        requireHttp(uri, agent + " has the url \"" + endpoint + "\", which is not an absolute http:// or https:// URL");
        long deadline = deadline();

        ObjectNode params = A2aJson.MAPPER.createObjectNode();
        params.set("message", A2aJson.MAPPER.valueToTree(Message.user(text, contextId)));
        params.putObject("configuration").put("blocking", true);
        JsonNode result = call(agent, uri, A2aProtocol.METHOD_SEND, params, deadline);
        while (true) {
            String kind = result.path("kind").asText("");
            if (kind.equals(A2aProtocol.KIND_MESSAGE) || (kind.isEmpty() && result.has("parts"))) {
                return read(agent, result, Message.class).plainText();
            }
            if (!kind.equals(A2aProtocol.KIND_TASK) && !(kind.isEmpty() && result.has("status"))) {
                throw new A2aException(JsonRpcError.INVALID_AGENT_RESPONSE, agent
                        + " answered neither a message nor a task" + excerpt(result.toString()));
            }
            Task task = read(agent, result, Task.class);
            if (Task.FAILED_STATES.contains(task.state())) {
                String reason = task.statusText();
                throw new A2aException(agent + ": the task " + (task.state().equals("failed") ? "failed"
                        : "was " + task.state()) + (reason.isBlank() ? "" : ": " + reason));
            }
            if (!task.running()) {
                String answer = task.artifactText();
                return answer.isEmpty() ? task.statusText() : answer;
            }
            if (task.id() == null || System.nanoTime() + POLL_INTERVAL.toNanos() > deadline) {
                throw new A2aException(agent + ": the task did not finish within " + human(timeout)
                        + " (still " + task.state() + ")");
            }
            pause();
            ObjectNode query = A2aJson.MAPPER.createObjectNode().put("id", task.id());
            result = call(agent, uri, A2aProtocol.METHOD_TASKS_GET, query, deadline);
        }
    }

    /** One JSON-RPC call; its result, or an exception naming the agent and the error. */
    private JsonNode call(String agent, URI uri, String method, JsonNode params, long deadline) throws A2aException {
        String body;
        try {
            body = A2aJson.MAPPER.writeValueAsString(JsonRpcRequest.of(UUID.randomUUID().toString(), method, params));
        } catch (JsonProcessingException e) {
            throw new A2aException("cannot write the request to " + agent + ": " + e.getOriginalMessage(), e);
        }
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(remaining(deadline))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        Reply reply = exchange(request, deadline, agent + " (" + uri + ")");
        JsonNode response;
        try {
            response = reply.body().isBlank() ? null : A2aJson.MAPPER.readTree(reply.body());
        } catch (JsonProcessingException e) {
            response = null;
        }
        JsonNode error = response == null ? null : response.get("error");
        if (error != null && error.isObject()) {
            String message = error.path("message").asText("").trim();
            int code = error.path("code").asInt(JsonRpcError.INTERNAL_ERROR);
            throw new A2aException(code, agent + " failed: " + (message.isEmpty() ? "no message" : message)
                    + " (JSON-RPC error " + code + (reply.ok() ? "" : ", HTTP " + reply.status()) + ")");
        }
        if (!reply.ok()) {
            throw new A2aException(agent + " (" + uri + ") answered HTTP " + reply.status() + excerpt(reply.body()));
        }
        if (response == null || !response.isObject()) {
            throw new A2aException(JsonRpcError.INVALID_AGENT_RESPONSE, agent
                    + " answered with something that is not JSON-RPC" + excerpt(reply.body()));
        }
        JsonNode result = response.get("result");
        if (result == null || !result.isObject()) {
            throw new A2aException(JsonRpcError.INVALID_AGENT_RESPONSE, agent + " answered without a result"
                    + excerpt(reply.body()));
        }
        return result;
    }

    private static <T> T read(String agent, JsonNode node, Class<T> type) throws A2aException {
        try {
            return A2aJson.MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new A2aException(JsonRpcError.INVALID_AGENT_RESPONSE, agent + " answered an invalid "
                    + type.getSimpleName().toLowerCase(Locale.ROOT) + excerpt(node.toString()), e);
        }
    }

    private record Reply(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** Sends and reads the whole answer (at most {@link #MAX_BODY_BYTES}) before the deadline. */
    private Reply exchange(HttpRequest request, long deadline, String what) throws A2aException {
        CompletableFuture<HttpResponse<byte[]>> future = http.sendAsync(request, info -> new LimitedBody(MAX_BODY_BYTES));
        try {
            HttpResponse<byte[]> response = future.get(remaining(deadline).toNanos(), TimeUnit.NANOSECONDS);
            return new Reply(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new A2aException(what + ": no answer within " + human(timeout), e);
        } catch (ExecutionException e) {
            throw new A2aException(what + ": " + reason(e.getCause(), request.uri()), e.getCause());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new A2aException(what + ": interrupted", e);
        }
    }

    /** Why a connection or exchange failed, in words. */
    private String reason(Throwable error, URI uri) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return "unknown host " + uri.getHost();
            }
            if (t instanceof BodyTooLarge) {
                return t.getMessage();
            }
        }
        if (error instanceof HttpConnectTimeoutException) {
            return "could not connect within " + human(timeout);
        }
        if (error instanceof HttpTimeoutException) {
            return "no answer within " + human(timeout);
        }
        if (error instanceof ConnectException) {
            return "cannot connect to " + uri.getHost() + ":" + port(uri) + " (connection refused)";
        }
        if (error instanceof SSLException) {
            return "TLS failed: " + error.getMessage();
        }
        String message = error == null ? null : error.getMessage();
        return message == null || message.isBlank() ? (error == null ? "failed" : error.getClass().getSimpleName())
                : message;
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static void requireHttp(URI uri, String message) throws A2aException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new A2aException(message);
        }
    }

    private long deadline() {
        return System.nanoTime() + timeout.toNanos();
    }

    private Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000L, deadline - System.nanoTime()));
    }

    private static void pause() throws A2aException {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new A2aException("interrupted while waiting for a remote agent's task", e);
        }
    }

    /** "30 s", "1.5 s", "250 ms". */
    static String human(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        return (millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.valueOf(millis / 1000.0)) + " s";
    }

    /** ": <the start of the body>", whitespace collapsed, or "" for an empty body. */
    static String excerpt(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String flat = body.strip().replaceAll("\\s+", " ");
        return ": " + (flat.length() > EXCERPT_LIMIT ? flat.substring(0, EXCERPT_LIMIT) + "…" : flat);
    }

    /** The answer is larger than the client reads. */
    static final class BodyTooLarge extends IOException {
        BodyTooLarge(int limit) {
            super("the answer is larger than " + (limit / (1024 * 1024)) + " MiB");
        }
    }

    /** Collects a body up to a limit; beyond it, cancels the exchange. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final int limit;
        private Flow.Subscription subscription;

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer item : items) {
                if (buffer.size() + item.remaining() > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new BodyTooLarge(limit));
                    return;
                }
                byte[] chunk = new byte[item.remaining()];
                item.get(chunk);
                buffer.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(buffer.toByteArray());
        }
    }
}
