package ai.lango.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * What Lango's MCP client and its MCP server (the edge {@code ai.lango.api.mcp}) share of the
 * protocol, each in one place: the versions each speaks, the headers of streamable HTTP, a tool as
 * {@code tools/list} gives it, and a result of text. The messages themselves are JSON-RPC 2.0
 * ({@code ai.lango.net.jsonrpc}).
 */
public final class McpProtocol {

    /** The versions Lango's client speaks, newest first; the first is the one it asks for. */
    public static final List<String> CLIENT_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** The versions Lango's server speaks; a client that asks for another is answered in {@link #SERVER_FALLBACK}. */
    public static final List<String> SERVER_VERSIONS = List.of("2025-11-25", "2025-06-18");
    public static final String SERVER_FALLBACK = "2025-06-18";

    /** The session a server gives at initialize, sent with every later request. */
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    /** The version agreed at initialize, sent with every later request. */
    public static final String VERSION_HEADER = "MCP-Protocol-Version";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private McpProtocol() {
    }

    /**
     * A tool as {@code tools/list} gives it; {@code title} and {@code annotations} may be absent (null, or a missing
     * node as read).
     */
    public record ToolInfo(String name, String title, String description, JsonNode inputSchema, JsonNode annotations) {

        /** The tool as a server lists it: name, title, description, inputSchema, annotations, the absent left out. */
        public ObjectNode json() {
            ObjectNode tool = NODES.objectNode().put("name", name);
            if (title != null) {
                tool.put("title", title);
            }
            tool.put("description", description);
            tool.set("inputSchema", inputSchema);
            if (annotations != null && !annotations.isMissingNode()) {
                tool.set("annotations", annotations);
            }
            return tool;
        }

        /** A tool of a server's list, as a client reads it; empty for an entry without a name. */
        public static Optional<ToolInfo> read(JsonNode tool) {
            if (!tool.path("name").isTextual()) {
                return Optional.empty();
            }
            return Optional.of(new ToolInfo(tool.get("name").asText(), tool.path("title").asText(null),
                    tool.path("description").asText(""), tool.path("inputSchema"), tool.path("annotations")));
        }
    }

    /** A tool call's result of one text block: {@code {"content":[{"type":"text","text":…}]}}, with {@code "isError": true} when it is one. */
    public static ObjectNode textResult(String text, boolean isError) {
        ObjectNode result = NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text == null ? "" : text);
        if (isError) {
            result.put("isError", true);
        }
        return result;
    }
}
