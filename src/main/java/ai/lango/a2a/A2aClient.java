package ai.lango.a2a;

import ai.lango.net.http.HttpPeers;
import ai.lango.net.http.IdleTimeoutBody;
import ai.lango.net.http.LimitedBody;
import ai.lango.net.jsonrpc.JsonRpc;
import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * A small A2A client over JSON-RPC, in 1.0 or 0.3 as the remote agent's card offers (1.0 when it offers
 * both): reads an agent card, sends a message (streaming when the agent streams, so its answer's chunks
 * arrive as the agent writes them), and continues a task that asked for input. Plain {@code java.net.http};
 * thread-safe, so one instance serves every remote agent. Every failure is an {@link A2aException} whose
 * message names the URL or the remote agent and what went wrong.
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
        this.http = HttpPeers.client(timeout, HttpClient.Redirect.NORMAL);
    }

    /** What a send is: in which conversation, continuing which task (null: a new one), the text, and an answer to a question. */
    public record Request(String contextId, String taskId, String text, Boolean approved) {

        /** A new message in a conversation. */
        public static Request of(String contextId, String text) {
            return new Request(contextId, null, text, null);
        }
    }

    /** How a send ended: the agent's answer, or a question it asks before it goes on (its task waits for input). */
    public sealed interface Reply {
        String text();

        record Answer(String text, String contextId, String taskId) implements Reply {
        }

        /** The task waits: what it asks, and what its data part says (an approval's id and call, for a Lango agent). */
        record Question(String text, String contextId, String taskId, JsonNode data) implements Reply {
        }
    }

    /**
     * Reads the agent card at {@code cardUrl} (e.g. {@code http://host/.well-known/agent-card.json}), in either
     * version; its endpoints are made absolute.
     */
    public AgentCard fetchCard(URI cardUrl) throws A2aException {
        Objects.requireNonNull(cardUrl, "cardUrl");
        String where = "the A2A agent card at " + cardUrl;
        requireHttp(cardUrl, "cannot fetch " + where + ": only http:// and https:// URLs are supported");
        HttpRequest request = HttpRequest.newBuilder(cardUrl).timeout(timeout).header("Accept", "application/json")
                .GET().build();
        Reply0 reply = exchange(request, deadline(), "cannot fetch " + where);
        if (!reply.ok()) {
            throw new A2aException("cannot fetch " + where + ": HTTP " + reply.status() + excerpt(reply.body()));
        }
        AgentCard card;
        try {
            card = AgentCard.read(A2aJson.MAPPER.readTree(reply.body()), cardUrl);
        } catch (JsonProcessingException e) {
            throw new A2aException(where + " is not a valid agent card: " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new A2aException(where + " is not a usable agent card: " + e.getMessage());
        }
        if (card.preferred().isEmpty()) {
            throw new A2aException(where + " (agent \"" + card.name() + "\") offers no JSON-RPC endpoint in A2A 1.0 or 0.3");
        }
        return card;
    }

    /** Sends {@code text} as a new message in {@code contextId} (null: the remote agent starts one); the answer's text. */
    public String send(AgentCard card, String contextId, String text) throws A2aException {
        return send(card, Request.of(contextId, text), chunk -> { }).text();
    }

    /**
     * Sends a message, or an answer to a task's question, to the agent of {@code card}, and follows its task
     * to its end or to its next question. With a streaming agent, {@code chunks} gets the answer's text as
     * it comes; otherwise a task the agent leaves running is asked after until it ends or the timeout passes.
     */
    public Reply send(AgentCard card, Request request, Consumer<String> chunks) throws A2aException {
        Objects.requireNonNull(card, "card");
        Objects.requireNonNull(request, "request");
        String agent = "remote agent \"" + (card.name() == null ? "?" : card.name()) + "\"";
        A2aVersion version = card.preferred().orElseThrow(() -> new A2aException(agent + " offers no JSON-RPC endpoint"));
        URI uri;
        try {
            uri = new URI(card.endpoints().get(version).trim());
        } catch (URISyntaxException e) {
            throw new A2aException(agent + " has an invalid url \"" + card.endpoints().get(version) + "\"");
        }
        requireHttp(uri, agent + " has the url \"" + uri + "\", which is not an absolute http:// or https:// URL");
        long deadline = deadline();
        List<Part> parts = new ArrayList<>();
        if (request.text() != null && !request.text().isEmpty()) {
            parts.add(Part.text(request.text()));
        }
        if (request.approved() != null) {
            parts.add(Part.data(A2aJson.MAPPER.createObjectNode().put("approved", request.approved())));
        }
        Message message = new Message(UUID.randomUUID().toString(), request.contextId(), request.taskId(), Message.Role.USER, parts);
        ObjectNode params = A2aJson.MAPPER.createObjectNode();
        params.set("message", A2aWire.message(version, message));
        ObjectNode configuration = params.putObject("configuration");
        if (version == A2aVersion.V0_3) {
            configuration.put("blocking", true);
        }
        configuration.putArray("acceptedOutputModes").add("text/plain").add("application/json");
        if (card.streaming()) {
            return streamed(agent, version, uri, params, deadline, chunks);
        }
        Object result = readResult(agent, call(agent, version, uri, version.send, params, deadline));
        while (true) {
            if (result instanceof Message answer) {
                return new Reply.Answer(answer.plainText(), answer.contextId(), answer.taskId());
            }
            if (!(result instanceof Task task)) {
                throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " answered neither a message nor a task");
            }
            Optional<Reply> ended = ended(agent, task);
            if (ended.isPresent()) {
                return ended.get();
            }
            if (task.id() == null || System.nanoTime() + POLL_INTERVAL.toNanos() > deadline) {
                throw new A2aException(agent + ": the task did not finish within " + human(timeout)
                        + " (still " + task.state().wire(A2aVersion.V0_3) + ")");
            }
            pause();
            ObjectNode query = A2aJson.MAPPER.createObjectNode().put("id", task.id());
            result = A2aWire.readTask(call(agent, version, uri, version.get, query, deadline));
        }
    }

    /** The reply a task that stopped gives: its answer, its question, or a failure; empty while it runs. */
    private static Optional<Reply> ended(String agent, Task task) throws A2aException {
        TaskState state = task.state();
        if (state == TaskState.FAILED || state == TaskState.CANCELED || state == TaskState.REJECTED) {
            String reason = task.statusText();
            throw new A2aException(agent + ": the task " + (state == TaskState.FAILED ? "failed" : "was "
                    + state.wire(A2aVersion.V0_3)) + (reason.isBlank() ? "" : ": " + reason));
        }
        if (state.interrupted()) {
            JsonNode data = task.status() == null || task.status().message() == null ? null
                    : task.status().message().parts().stream().filter(Part::isData).map(Part::data).findFirst().orElse(null);
            String text = task.status() == null || task.status().message() == null ? "" : task.status().message().text();
            return Optional.of(new Reply.Question(text.isBlank() ? "The remote agent asks for input." : text, task.contextId(),
                    task.id(), data));
        }
        if (state.terminal() || state == TaskState.UNKNOWN) {
            String answer = task.artifactText();
            return Optional.of(new Reply.Answer(answer.isEmpty() ? task.statusText() : answer, task.contextId(), task.id()));
        }
        return Optional.empty();
    }

    /** A streamed send: chunks of the answer as they come, then how the task stopped. */
    private Reply streamed(String agent, A2aVersion version, URI uri, JsonNode params, long deadline, Consumer<String> chunks)
            throws A2aException {
        HttpRequest request = post(version, uri, version.stream, params, deadline, "text/event-stream");
        HttpResponse<InputStream> response;
        try {
            // A remote agent that goes silent, or only keeps the connection alive, is not waited for past the deadline.
            response = http.send(request, IdleTimeoutBody.handler(timeout, deadline));
        } catch (IOException e) {
            throw new A2aException(agent + " (" + uri + "): " + reason(e, uri), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new A2aException(agent + ": interrupted", e);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            // An error before the stream: one JSON-RPC response.
            try {
                String body = HttpPeers.read(response.body(), MAX_BODY_BYTES);
                throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " did not stream"
                        + (response.statusCode() / 100 == 2 ? "" : " (HTTP " + response.statusCode() + ")") + errorOf(agent, body));
            } catch (IOException e) {
                throw new A2aException(agent + ": " + reason(e, uri), e);
            }
        }
        Task task = null;
        Map<String, StringBuilder> artifacts = new LinkedHashMap<>();
        try (SseReader events = new SseReader(response.body(), MAX_BODY_BYTES, MAX_BODY_BYTES)) {
            SseReader.Event sent;
            while ((sent = events.next()) != null) {
                if (System.nanoTime() > deadline) {
                    throw new A2aException(agent + ": the task did not finish within " + human(timeout));
                }
                if (sent.data().isEmpty()) {
                    continue;
                }
                Object event = readResult(agent, resultOf(agent, sent.data()));
                if (event instanceof Message answer) {
                    return new Reply.Answer(answer.plainText(), answer.contextId(), answer.taskId());
                }
                if (event instanceof Task snapshot) {
                    task = snapshot;
                } else if (event instanceof TaskEvent.ArtifactUpdate update) {
                    String text = update.artifact().plainText();
                    StringBuilder built = artifacts.computeIfAbsent(update.artifact().artifactId(), id -> new StringBuilder());
                    if (update.append()) {
                        built.append(text);
                        chunks.accept(text);
                    } else if (built.length() == 0) {
                        built.append(text);
                        chunks.accept(text);
                    } else {
                        built.setLength(0); // the whole artifact again, replacing the chunks: nothing new to show
                        built.append(text);
                    }
                } else if (event instanceof TaskEvent.StatusUpdate update) {
                    Task base = task == null ? new Task(update.taskId(), update.contextId(), update.status(), List.of(), List.of()) : task;
                    task = new Task(base.id(), base.contextId(), update.status(), base.artifacts(), base.history());
                }
                // A continued task's stream starts with the task as it waited: only a new status that waits ends it.
                if (task != null && (task.state().terminal() || (task.state().interrupted() && event instanceof TaskEvent.StatusUpdate))) {
                    break;
                }
            }
        } catch (SseReader.TooLarge e) {
            throw new A2aException(agent + " sent an event larger than " + (MAX_BODY_BYTES / (1024 * 1024)) + " MiB");
        } catch (IdleTimeoutBody.IdleTimeoutException e) {
            throw new A2aException(agent + ": the task did not finish within " + human(timeout), e);
        } catch (IOException e) {
            throw new A2aException(agent + ": the stream broke: " + reason(e, uri), e);
        }
        if (task == null) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " ended its stream without a task");
        }
        if (!artifacts.isEmpty() && task.artifacts().isEmpty()) {
            List<Artifact> built = new ArrayList<>();
            artifacts.forEach((id, text) -> built.add(new Artifact(id, id, List.of(Part.text(text.toString())))));
            task = new Task(task.id(), task.contextId(), task.status(), built, task.history());
        }
        Optional<Reply> ended = ended(agent, task);
        if (ended.isEmpty()) {
            throw new A2aException(agent + " ended its stream while the task was still " + task.state().wire(A2aVersion.V0_3));
        }
        return ended.get();
    }

    private static Object readResult(String agent, JsonNode result) throws A2aException {
        try {
            return A2aWire.readResult(result);
        } catch (IllegalArgumentException e) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " answered " + e.getMessage()
                    + excerpt(result.toString()));
        }
    }

    /** The result of one event's JSON-RPC response, or the error it carries. */
    private static JsonNode resultOf(String agent, String json) throws A2aException {
        JsonNode response;
        try {
            response = A2aJson.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " streamed something that is not JSON" + excerpt(json));
        }
        Optional<JsonNode> error = JsonRpc.errorOf(response);
        if (error.isPresent()) {
            throw failure(agent, error.get(), 200);
        }
        JsonNode result = response.get("result");
        if (result == null || !result.isObject()) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " streamed an event without a result" + excerpt(json));
        }
        return result;
    }

    private static String errorOf(String agent, String body) {
        try {
            Optional<JsonNode> error = JsonRpc.errorOf(A2aJson.MAPPER.readTree(body));
            return error.isEmpty() ? excerpt(body) : ": " + failure(agent, error.get(), 200).getMessage();
        } catch (JsonProcessingException e) {
            return excerpt(body);
        }
    }

    private static A2aException failure(String agent, JsonNode error, int status) {
        String message = error.path("message").asText("").trim();
        int code = error.path("code").asInt(JsonRpc.INTERNAL_ERROR);
        return new A2aException(code, agent + " failed: " + (message.isEmpty() ? "no message" : message)
                + " (JSON-RPC error " + code + (status / 100 == 2 ? "" : ", HTTP " + status) + ")");
    }

    private HttpRequest post(A2aVersion version, URI uri, String method, JsonNode params, long deadline, String accept) {
        String body = JsonRpc.request(UUID.randomUUID().toString(), method, params).toString();
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(remaining(deadline))
                .header("Content-Type", "application/json")
                .header("Accept", accept);
        if (version == A2aVersion.V1_0) {
            builder.header(A2aVersion.HEADER, version.number());
        }
        HttpPeers.traced(builder); // the delegation's span, for an agent that traces
        return builder.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
    }

    /** One JSON-RPC call; its result, or an exception naming the agent and the error. */
    private JsonNode call(String agent, A2aVersion version, URI uri, String method, JsonNode params, long deadline)
            throws A2aException {
        HttpRequest request = post(version, uri, method, params, deadline, "application/json");
        Reply0 reply = exchange(request, deadline, agent + " (" + uri + ")");
        JsonNode response;
        try {
            response = reply.body().isBlank() ? null : A2aJson.MAPPER.readTree(reply.body());
        } catch (JsonProcessingException e) {
            response = null;
        }
        Optional<JsonNode> error = JsonRpc.errorOf(response);
        if (error.isPresent()) {
            throw failure(agent, error.get(), reply.status());
        }
        if (!reply.ok()) {
            throw new A2aException(agent + " (" + uri + ") answered HTTP " + reply.status() + excerpt(reply.body()));
        }
        if (response == null || !response.isObject()) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent
                    + " answered with something that is not JSON-RPC" + excerpt(reply.body()));
        }
        JsonNode result = response.get("result");
        if (result == null || !result.isObject()) {
            throw new A2aException(A2aErrors.INVALID_AGENT_RESPONSE, agent + " answered without a result"
                    + excerpt(reply.body()));
        }
        return result;
    }

    private record Reply0(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** Sends and reads the whole answer (at most {@link #MAX_BODY_BYTES}) before the deadline. */
    private Reply0 exchange(HttpRequest request, long deadline, String what) throws A2aException {
        CompletableFuture<HttpResponse<byte[]>> future = http.sendAsync(request, LimitedBody.handler(MAX_BODY_BYTES));
        try {
            HttpResponse<byte[]> response = future.get(remaining(deadline).toNanos(), TimeUnit.NANOSECONDS);
            return new Reply0(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
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
            if (t instanceof LimitedBody.TooLarge) {
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
        String excerpt = HttpPeers.excerpt(body, EXCERPT_LIMIT);
        return excerpt.isEmpty() ? "" : ": " + excerpt;
    }
}
