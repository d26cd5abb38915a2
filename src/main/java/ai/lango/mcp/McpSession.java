package ai.lango.mcp;

import ai.lango.masking.MaskedLogs;
import ai.lango.net.jsonrpc.JsonRpc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Lango's side of one MCP connection: JSON-RPC 2.0 over a {@link McpTransport}. It initializes
 * (offering the newest protocol it speaks and taking the server's if it is one of them), lists the
 * server's tools page by page, calls one with a progress token and a deadline — a call that is
 * stopped or runs out of time is cancelled on the server too ({@code notifications/cancelled}) — and
 * answers what a server asks of a client: {@code ping}, {@code roots/list} (none), {@code
 * elicitation/create} as its entry says (declined, or accepted with the form's defaults), and no
 * sampling.
 */
final class McpSession implements AutoCloseable {

    private static final Logger LOG = MaskedLogs.of(McpSession.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the session tells its owner. */
    interface Listener {
        void toolsChanged();

        void ended(String why);
    }

    /** A server's progress on a call: how far, out of how much (0 when unknown), and what it says. */
    record Progress(double progress, double total, String message) {
    }

    /** A call the server answered with a JSON-RPC error, or that did not end. */
    static final class CallFailed extends Exception {
        CallFailed(String message) {
            super(message);
        }
    }

    private final String server;
    private final McpTransport transport;
    private final McpServerEntry.Elicitation elicitation;
    private final Listener listener;
    private final AtomicLong ids = new AtomicLong();
    private final Map<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, Consumer<Progress>> progress = new ConcurrentHashMap<>();
    private volatile String protocol;
    private volatile String serverName = "";
    private volatile boolean ended;
    private volatile String endedWhy = "the connection to the server has ended";

    McpSession(String server, McpTransport transport, McpServerEntry.Elicitation elicitation, Listener listener) {
        this.server = server;
        this.transport = transport;
        this.elicitation = elicitation;
        this.listener = listener;
    }

    /** Starts the transport and completes the handshake; the protocol version agreed. */
    String initialize(Duration timeout) throws IOException, CallFailed {
        transport.start(this::received, why -> {
            endedWhy = why;
            ended = true;
            listener.ended(why); // before the waiting calls hear of it: they may start over at once
            pending.values().forEach(call -> call.completeExceptionally(new IOException(why)));
            pending.clear();
        });
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", McpProtocol.CLIENT_VERSIONS.get(0));
        ObjectNode capabilities = params.putObject("capabilities");
        capabilities.putObject("roots").put("listChanged", false);
        if (elicitation == McpServerEntry.Elicitation.DEFAULTS) {
            capabilities.putObject("elicitation");
        }
        params.putObject("clientInfo").put("name", "lango").put("title", "Lango").put("version", "1.0.0");
        JsonNode result = request("initialize", params, timeout, null);
        String offered = result.path("protocolVersion").asText("");
        if (!McpProtocol.CLIENT_VERSIONS.contains(offered)) {
            throw new CallFailed("the server speaks MCP " + (offered.isEmpty() ? "of no version" : offered)
                    + "; Lango speaks " + String.join(", ", McpProtocol.CLIENT_VERSIONS));
        }
        protocol = offered;
        serverName = result.path("serverInfo").path("name").asText("");
        transport.agreed(offered);
        notify("notifications/initialized", JSON.createObjectNode());
        return offered;
    }

    String protocol() {
        return protocol;
    }

    String serverName() {
        return serverName;
    }

    /** Every tool the server lists, page after page. */
    List<McpProtocol.ToolInfo> listTools(Duration timeout) throws IOException, CallFailed {
        List<McpProtocol.ToolInfo> tools = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            ObjectNode params = JSON.createObjectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            JsonNode result = request("tools/list", params, timeout, null);
            for (JsonNode tool : result.path("tools")) {
                McpProtocol.ToolInfo.read(tool).ifPresent(tools::add);
            }
            cursor = result.path("nextCursor").isTextual() ? result.get("nextCursor").asText() : null;
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return tools;
    }

    /** Calls a tool; its result ({@code content}, {@code structuredContent}, {@code isError}). */
    JsonNode callTool(String name, Map<String, Object> args, Duration timeout, Consumer<Progress> onProgress)
            throws IOException, CallFailed, InterruptedException {
        ObjectNode params = JSON.createObjectNode().put("name", name);
        params.set("arguments", JSON.valueToTree(args));
        return request("tools/call", params, timeout, onProgress);
    }

    private JsonNode request(String method, ObjectNode params, Duration timeout, Consumer<Progress> onProgress)
            throws IOException, CallFailed {
        try {
            return requestInterruptibly(method, params, timeout, onProgress);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailed(method + " was stopped");
        }
    }

    private JsonNode requestInterruptibly(String method, ObjectNode params, Duration timeout, Consumer<Progress> onProgress)
            throws IOException, CallFailed, InterruptedException {
        if (ended) {
            throw new IOException(endedWhy);
        }
        long id = ids.incrementAndGet();
        String key = String.valueOf(id);
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(key, answer);
        if (onProgress != null) {
            params.putObject("_meta").put("progressToken", "lango-" + id);
            progress.put("lango-" + id, onProgress);
        }
        try {
            transport.send(JsonRpc.request(id, method, params));
            JsonNode response = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Optional<JsonNode> error = JsonRpc.errorOf(response);
            if (error.isPresent()) {
                throw new CallFailed("the server answered error " + error.get().path("code").asInt() + ": "
                        + error.get().path("message").asText("(no message)"));
            }
            return response.path("result");
        } catch (TimeoutException e) {
            cancel(id, "no answer within " + timeout.toSeconds() + " s");
            throw new CallFailed("the server did not answer " + method + " within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            cancel(id, "the call was stopped");
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(String.valueOf(e.getCause().getMessage()), e.getCause());
        } finally {
            pending.remove(key);
            progress.remove("lango-" + id);
        }
    }

    /** Tells the server that request {@code id} is no longer wanted. */
    private void cancel(long id, String reason) {
        try {
            notify("notifications/cancelled", JSON.createObjectNode().put("requestId", id).put("reason", reason));
        } catch (IOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": the cancellation could not be sent: " + e.getMessage());
        }
    }

    private void notify(String method, ObjectNode params) throws IOException {
        transport.send(JsonRpc.notification(method, params));
    }

    /** A message from the server: an answer, a request of its own, or a notification. */
    private void received(JsonNode message) {
        if (!message.isObject()) {
            return;
        }
        if (JsonRpc.isResponse(message)) {
            CompletableFuture<JsonNode> waiting = pending.get(JsonRpc.key(message.get("id")));
            if (waiting != null) {
                waiting.complete(message);
            }
            return;
        }
        String method = message.path("method").asText("");
        if (JsonRpc.isRequest(message)) {
            answer(message.get("id"), method, message.path("params"));
            return;
        }
        switch (method) {
            case "notifications/tools/list_changed" -> listener.toolsChanged();
            case "notifications/progress" -> {
                JsonNode params = message.path("params");
                Consumer<Progress> sink = progress.get(params.path("progressToken").asText());
                if (sink != null) {
                    sink.accept(new Progress(params.path("progress").asDouble(), params.path("total").asDouble(0),
                            params.path("message").asText("")));
                }
            }
            case "notifications/message" -> LOG.fine(() -> "MCP server \"" + server + "\" logs: " + message.path("params"));
            default -> {
                // notifications Lango does not use (resources, prompts) are ignored
            }
        }
    }

    /** Answers a request the server makes of Lango. */
    private void answer(JsonNode id, String method, JsonNode params) {
        ObjectNode response = switch (method) {
            case "ping" -> JsonRpc.result(id, JSON.createObjectNode());
            case "roots/list" -> JsonRpc.result(id, JSON.createObjectNode().set("roots", JSON.createArrayNode()));
            case "elicitation/create" -> JsonRpc.result(id, elicit(params));
            default -> JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Lango does not answer " + method);
        };
        try {
            transport.send(response);
        } catch (IOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": an answer could not be sent: " + e.getMessage());
        }
    }

    /**
     * A server asks for a person's input in the middle of a call. Nobody is there to fill a form:
     * declined, unless the server's entry says {@code "elicitation": "defaults"}, and then accepted
     * with the defaults its form gives (a form with no default for a required field is declined).
     */
    private ObjectNode elicit(JsonNode params) {
        ObjectNode result = JSON.createObjectNode();
        if (elicitation != McpServerEntry.Elicitation.DEFAULTS) {
            LOG.info(() -> "MCP server \"" + server + "\" asked for input (\"" + params.path("message").asText() + "\"): declined");
            return result.put("action", "decline");
        }
        JsonNode schema = params.path("requestedSchema");
        ObjectNode content = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().has("default")) {
                content.set(field.getKey(), field.getValue().get("default"));
            }
        }
        for (JsonNode required : schema.path("required")) {
            if (!content.has(required.asText())) {
                return result.put("action", "decline");
            }
        }
        result.put("action", "accept");
        result.set("content", content);
        return result;
    }

    @Override
    public void close() {
        ended = true;
        transport.close();
    }
}
