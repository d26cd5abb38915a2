package ai.lango.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import ai.lango.config.Ids;

/**
 * The A2A JSON-RPC endpoint's logic, without a container: reads a request body, answers
 * {@code message/send} with the agent's text as an agent message in the same context, and every
 * other request with the fitting JSON-RPC error. Lango keeps no tasks and does not stream, so
 * {@code message/stream} and the task methods are refused with A2A's own error codes.
 */
public final class A2aServer {

    /** The longest message text accepted, as for a chat frame. */
    public static final int MAX_TEXT_CHARS = 1024 * 1024;
    /** Context ids become session ids "a2a-&lt;contextId&gt;", which follow the id rule ({@link Ids}). */
    public static final int MAX_CONTEXT_ID_CHARS = Ids.MAX_LENGTH - "a2a-".length();

    /** The agent behind the endpoint: one turn in a context, its answer's text. */
    @FunctionalInterface
    public interface Agent {
        /** @throws A2aException with a message for the caller when the turn fails */
        String answer(String contextId, String text) throws A2aException;

        /** The turn's reply: its text, and whether it stopped for the caller's input (a call waits for approval). */
        default Reply reply(String contextId, String text) throws A2aException {
            return new Reply(answer(contextId, text), false);
        }
    }

    /** What a turn answered, and whether it waits for input: then the caller gets a task in state input-required. */
    public record Reply(String text, boolean inputRequired) {
    }

    private final Agent agent;

    public A2aServer(Agent agent) {
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    /** The JSON-RPC response to a request body, as JSON; always one response, never an exception. */
    public String handle(String body) {
        try {
            return A2aJson.MAPPER.writeValueAsString(respond(body));
        } catch (JsonProcessingException e) {
            // Records of strings and trees always serialise; this is a last resort.
            return "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + JsonRpcError.INTERNAL_ERROR
                    + ",\"message\":\"the response could not be written\"}}";
        }
    }

    /** The JSON-RPC response to a request body. */
    public JsonRpcResponse respond(String body) {
        JsonNode request;
        try {
            request = A2aJson.MAPPER.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            return JsonRpcResponse.failure(null, JsonRpcError.PARSE_ERROR, "the body is not valid JSON: "
                    + e.getOriginalMessage() + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr()));
        }
        if (request == null || request.isMissingNode()) {
            return JsonRpcResponse.failure(null, JsonRpcError.PARSE_ERROR, "the body is empty; expected a JSON-RPC request");
        }
        if (request.isArray()) {
            return JsonRpcResponse.failure(null, JsonRpcError.INVALID_REQUEST, "batch requests are not supported;"
                    + " send one JSON-RPC request per call");
        }
        if (!request.isObject()) {
            return JsonRpcResponse.failure(null, JsonRpcError.INVALID_REQUEST,
                    "expected a JSON-RPC request object {\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…,\"params\":{…}}");
        }
        JsonNode id = request.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber() || id.isNull())) {
            return JsonRpcResponse.failure(null, JsonRpcError.INVALID_REQUEST, "id must be a string, an integer or null");
        }
        if (!A2aProtocol.JSONRPC_VERSION.equals(request.path("jsonrpc").asText(null))) {
            return JsonRpcResponse.failure(id, JsonRpcError.INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        JsonNode method = request.get("method");
        if (method == null || !method.isTextual() || method.asText().isBlank()) {
            return JsonRpcResponse.failure(id, JsonRpcError.INVALID_REQUEST, "method must be a non-empty string");
        }
        String name = method.asText();
        if (name.equals(A2aProtocol.METHOD_SEND)) {
            return send(id, request.get("params"));
        }
        if (name.equals(A2aProtocol.METHOD_STREAM) || name.equals(A2aProtocol.METHOD_TASKS_RESUBSCRIBE)) {
            return JsonRpcResponse.failure(id, JsonRpcError.UNSUPPORTED_OPERATION, "streaming is not supported by this"
                    + " agent (capabilities.streaming is false); use " + A2aProtocol.METHOD_SEND);
        }
        if (name.equals(A2aProtocol.METHOD_TASKS_GET) || name.equals(A2aProtocol.METHOD_TASKS_CANCEL)) {
            String task = request.path("params").path("id").asText("");
            return JsonRpcResponse.failure(id, JsonRpcError.TASK_NOT_FOUND, "task \"" + task + "\" not found: this"
                    + " agent answers with messages and keeps no tasks");
        }
        if (name.startsWith(A2aProtocol.METHOD_PUSH_CONFIG_PREFIX)) {
            return JsonRpcResponse.failure(id, JsonRpcError.PUSH_NOTIFICATION_NOT_SUPPORTED,
                    "push notifications are not supported by this agent");
        }
        if (name.equals(A2aProtocol.METHOD_EXTENDED_CARD)) {
            return JsonRpcResponse.failure(id, JsonRpcError.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED,
                    "this agent has no authenticated extended card");
        }
        return JsonRpcResponse.failure(id, JsonRpcError.METHOD_NOT_FOUND, "unknown method \"" + name
                + "\"; this agent supports " + A2aProtocol.METHOD_SEND);
    }

    private JsonRpcResponse send(JsonNode id, JsonNode params) {
        if (params == null || !params.isObject() || !params.path("message").isObject()) {
            return invalidParams(id, "params.message is required: {\"message\":{\"role\":\"user\",\"parts\":"
                    + "[{\"kind\":\"text\",\"text\":…}],\"messageId\":…,\"contextId\":…}}");
        }
        JsonNode message = params.get("message");
        String role = message.path("role").asText("");
        if (!role.equals(A2aProtocol.ROLE_USER)) {
            return invalidParams(id, "params.message.role must be \"user\", not \"" + role + "\"");
        }
        JsonNode kind = message.get("kind");
        if (kind != null && !kind.isNull() && !A2aProtocol.KIND_MESSAGE.equals(kind.asText())) {
            return invalidParams(id, "params.message.kind must be \"message\", not \"" + kind.asText() + "\"");
        }
        JsonNode taskId = message.get("taskId");
        if (taskId != null && !taskId.isNull() && !taskId.asText().isEmpty()) {
            return JsonRpcResponse.failure(id, JsonRpcError.TASK_NOT_FOUND, "task \"" + taskId.asText() + "\" not found:"
                    + " this agent answers with messages and keeps no tasks; continue a conversation with its contextId");
        }
        String contextId;
        JsonNode context = message.get("contextId");
        if (context == null || context.isNull()) {
            contextId = UUID.randomUUID().toString();
        } else if (context.isTextual() && Ids.valid(context.asText()) && context.asText().length() <= MAX_CONTEXT_ID_CHARS) {
            contextId = context.asText();
        } else {
            return invalidParams(id, "params.message.contextId must be an id of 1 to " + MAX_CONTEXT_ID_CHARS
                    + " letters, digits, '.', '_', ':', '@' or '-' (not \".\" or \"..\")");
        }
        JsonNode parts = message.get("parts");
        if (parts == null || !parts.isArray() || parts.isEmpty()) {
            return invalidParams(id, "params.message.parts must be a non-empty array of parts such as"
                    + " {\"kind\":\"text\",\"text\":…}");
        }
        StringBuilder text = new StringBuilder();
        List<String> otherKinds = new ArrayList<>();
        for (JsonNode part : parts) {
            String partKind = part.path("kind").asText(part.has("text") ? A2aProtocol.PART_TEXT : "?");
            if (!partKind.equals(A2aProtocol.PART_TEXT)) {
                otherKinds.add(partKind);
                continue;
            }
            if (!part.path("text").isTextual()) {
                return invalidParams(id, "a text part needs a \"text\" string");
            }
            if (text.length() > 0) {
                text.append('\n');
            }
            text.append(part.get("text").asText());
        }
        if (text.length() == 0 && !otherKinds.isEmpty()) {
            return JsonRpcResponse.failure(id, JsonRpcError.CONTENT_TYPE_NOT_SUPPORTED, "this agent reads text parts"
                    + " only; the message has " + String.join(", ", otherKinds) + " parts");
        }
        if (text.toString().isBlank()) {
            return invalidParams(id, "the message has no text");
        }
        if (text.length() > MAX_TEXT_CHARS) {
            return invalidParams(id, "the message's text is " + text.length() + " characters long; at most "
                    + MAX_TEXT_CHARS + " are accepted");
        }
        try {
            Reply reply = agent.reply(contextId, text.toString());
            String answer = reply.text() == null ? "" : reply.text();
            return JsonRpcResponse.success(id, reply.inputRequired() ? Task.inputRequired(answer, contextId)
                    : Message.agent(answer, contextId));
        } catch (A2aException e) {
            return JsonRpcResponse.failure(id, e.code(), e.getMessage());
        }
    }

    private static JsonRpcResponse invalidParams(JsonNode id, String message) {
        return JsonRpcResponse.failure(id, JsonRpcError.INVALID_PARAMS, message);
    }
}
