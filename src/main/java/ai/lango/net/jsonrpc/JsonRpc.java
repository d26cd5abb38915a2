package ai.lango.net.jsonrpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * JSON-RPC 2.0 messages as JSON trees, for Lango's clients and servers alike: how a request, a
 * notification, a result and an error are written (members in the order {@code jsonrpc}, {@code id},
 * then {@code method} and {@code params} or {@code result} or {@code error}; a response's id is
 * always written, null when the request's could not be read), how a server reads and checks one
 * message, how a client reads what comes (one message or a batch), and how messages are told apart
 * and matched to their requests by id ({@code 1} and {@code "1"} alike).
 */
public final class JsonRpc {

    public static final String VERSION = "2.0";

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonRpc() {
    }

    // --- writing

    /** A request; {@code params} is left out when null. */
    public static ObjectNode request(JsonNode id, String method, JsonNode params) {
        ObjectNode message = NODES.objectNode().put("jsonrpc", VERSION);
        message.set("id", id);
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    public static ObjectNode request(long id, String method, JsonNode params) {
        return request(NODES.numberNode(id), method, params);
    }

    public static ObjectNode request(String id, String method, JsonNode params) {
        return request(NODES.textNode(id), method, params);
    }

    /** A notification: a request without an id, which is never answered. */
    public static ObjectNode notification(String method, JsonNode params) {
        ObjectNode message = NODES.objectNode().put("jsonrpc", VERSION).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    /** The answer to request {@code id} (null: JSON's null). */
    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode message = NODES.objectNode().put("jsonrpc", VERSION);
        message.set("id", id);
        message.set("result", result);
        return message;
    }

    /** The error answering request {@code id} (null: JSON's null, for a request whose id could not be read). */
    public static ObjectNode error(JsonNode id, int code, String text) {
        ObjectNode message = NODES.objectNode().put("jsonrpc", VERSION);
        message.set("id", id);
        message.putObject("error").put("code", code).put("message", text);
        return message;
    }

    // --- reading, as a server

    /** A body that is no JSON-RPC message a server takes: the error to answer with, and the id it answers (null: none read). */
    public static final class Invalid extends Exception {
        private final transient ObjectNode response;

        Invalid(JsonNode id, int code, String message) {
            super(message);
            this.response = error(id, code, message);
        }

        /** The error response that says so. */
        public ObjectNode response() {
            return response;
        }

        public int code() {
            return response.path("error").path("code").asInt();
        }

        /** The id the error answers; null when none was read. */
        public JsonNode id() {
            return response.get("id").isNull() ? null : response.get("id");
        }
    }

    /** A server's request body, checked: one request or notification (a batch is refused: Lango's servers take none). */
    public static JsonNode readRequest(String body) throws Invalid {
        return read(body, false);
    }

    /**
     * A server's body that may also be a response (a client answering what the server asked it), checked as
     * {@link #readRequest} does; a message without a method must have an id.
     */
    public static JsonNode readMessage(String body) throws Invalid {
        return read(body, true);
    }

    private static JsonNode read(String body, boolean responses) throws Invalid {
        JsonNode message;
        try {
            message = JSON.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw new Invalid(null, PARSE_ERROR, "the body is not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr()));
        }
        if (message == null || message.isMissingNode()) {
            throw new Invalid(null, PARSE_ERROR, "the body is empty; expected a JSON-RPC request");
        }
        if (message.isArray()) {
            throw new Invalid(null, INVALID_REQUEST, "batch requests are not supported; send one JSON-RPC request per call");
        }
        if (!message.isObject()) {
            throw new Invalid(null, INVALID_REQUEST,
                    "expected a JSON-RPC request object {\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…,\"params\":{…}}");
        }
        JsonNode id = message.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber() || id.isNull())) {
            throw new Invalid(null, INVALID_REQUEST, "id must be a string, an integer or null");
        }
        if (!VERSION.equals(message.path("jsonrpc").asText(null))) {
            throw new Invalid(id, INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        JsonNode method = message.get("method");
        boolean answer = responses && method == null && id != null && !id.isNull()
                && (message.has("result") || message.has("error"));
        if (!answer && (method == null || !method.isTextual() || method.asText().isBlank())) {
            throw new Invalid(id, INVALID_REQUEST, "method must be a non-empty string");
        }
        return message;
    }

    // --- reading, as a client

    /** What a peer sent: one message, or each of a batch; not checked (a client takes its server's messages as they come). */
    public static List<JsonNode> readAll(String body) throws IOException {
        if (body == null || body.isBlank()) {
            return List.of();
        }
        JsonNode read = JSON.readTree(body);
        List<JsonNode> messages = new ArrayList<>();
        if (read.isArray()) {
            read.forEach(messages::add);
        } else {
            messages.add(read);
        }
        return messages;
    }

    // --- telling apart

    /** A request that waits for an answer: a method and an id that is not null. */
    public static boolean isRequest(JsonNode message) {
        return message.has("method") && hasId(message);
    }

    /** A message without a method that answers request {@link #key its id}. */
    public static boolean isResponse(JsonNode message) {
        return message.isObject() && !message.has("method") && hasId(message);
    }

    private static boolean hasId(JsonNode message) {
        return message.has("id") && !message.get("id").isNull();
    }

    /** A response's error (its {@code code} and {@code message}), when it carries one. */
    public static Optional<JsonNode> errorOf(JsonNode response) {
        JsonNode error = response == null ? null : response.get("error");
        return error == null || error.isNull() ? Optional.empty() : Optional.of(error);
    }

    /**
     * An id as the key that matches a response to its request: the text of a string, the digits of an integer, so
     * that a peer answering request {@code 1} with id {@code "1"} is still understood; null for no id.
     */
    public static String key(JsonNode id) {
        if (id == null || id.isNull() || id.isMissingNode()) {
            return null;
        }
        if (id.isTextual()) {
            return id.textValue();
        }
        return id.isIntegralNumber() ? id.bigIntegerValue().toString() : id.toString();
    }
}
