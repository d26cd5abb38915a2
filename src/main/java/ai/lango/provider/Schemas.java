package ai.lango.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Conversions between the neutral types and JSON shared by the wire formats. */
final class Schemas {

    private Schemas() {
    }

    /** Schemas already converted, by their map: the same tools are offered at every model call. */
    private static final Map<Map<String, Object>, JsonNode> CONVERTED = new ConcurrentHashMap<>();

    /** At most this many are kept (tools made at run time, such as an MCP server's, could be many). */
    private static final int MAX_CONVERTED = 1024;

    /**
     * A tool's parameter schema; a tool without parameters takes an empty object. The node may be
     * shared with other requests: it is only read (written into a request body).
     */
    static JsonNode parameters(ToolDeclaration tool) {
        if (tool.parameters() == null || tool.parameters().isEmpty()) {
            ObjectNode empty = HttpTransport.JSON.createObjectNode();
            empty.put("type", "object");
            empty.putObject("properties");
            return empty;
        }
        JsonNode known = CONVERTED.get(tool.parameters());
        if (known != null) {
            return known;
        }
        JsonNode made = HttpTransport.JSON.valueToTree(tool.parameters());
        if (CONVERTED.size() < MAX_CONVERTED) {
            CONVERTED.put(tool.parameters(), made);
        }
        return made;
    }

    /**
     * Arguments or a tool result as a JSON object, for formats that carry objects rather than text.
     * Blank → {}; a JSON object → itself; anything else → null (the caller decides).
     */
    static ObjectNode objectOrNull(String text) {
        if (text == null || text.isBlank()) {
            return HttpTransport.JSON.createObjectNode();
        }
        try {
            JsonNode node = HttpTransport.JSON.readTree(text);
            return node instanceof ObjectNode object ? object : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
