package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;

/** A JSON-RPC 2.0 request: {@code {"jsonrpc":"2.0","id":…,"method":…,"params":{…}}}. */
public record JsonRpcRequest(String jsonrpc, JsonNode id, String method, JsonNode params) {

    public static JsonRpcRequest of(String id, String method, Object params) {
        return new JsonRpcRequest(A2aProtocol.JSONRPC_VERSION, A2aJson.MAPPER.getNodeFactory().textNode(id), method,
                A2aJson.MAPPER.valueToTree(params));
    }
}
