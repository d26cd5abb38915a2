package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 error object, {@code {"code":…,"message":…,"data":…}}, with the standard codes and
 * the ones A2A adds.
 */
public record JsonRpcError(int code, String message, JsonNode data) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    public static final int TASK_NOT_FOUND = -32001;
    public static final int TASK_NOT_CANCELABLE = -32002;
    public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
    public static final int UNSUPPORTED_OPERATION = -32004;
    public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;
    public static final int INVALID_AGENT_RESPONSE = -32006;
    public static final int AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED = -32007;
    public static final int VERSION_NOT_SUPPORTED = -32009;

    public static JsonRpcError of(int code, String message) {
        return new JsonRpcError(code, message, null);
    }
}
