package ai.lango.a2a;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 response: {@code result} or {@code error}, never both. The {@code id} is always
 * written, {@code null} when the request's could not be read.
 */
public record JsonRpcResponse(String jsonrpc, @JsonInclude(JsonInclude.Include.ALWAYS) JsonNode id, JsonNode result,
                              JsonRpcError error) {

    public static JsonRpcResponse success(JsonNode id, Object result) {
        return new JsonRpcResponse(A2aProtocol.JSONRPC_VERSION, id, A2aJson.MAPPER.valueToTree(result), null);
    }

    public static JsonRpcResponse failure(JsonNode id, int code, String message) {
        return new JsonRpcResponse(A2aProtocol.JSONRPC_VERSION, id, null, JsonRpcError.of(code, message));
    }
}
