package ai.lango.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Conversions between the neutral types and JSON shared by the wire formats. */
final class Schemas {

    private Schemas() {
    }

    /** A tool's parameter schema; a tool without parameters takes an empty object. */
    static JsonNode parameters(ToolDeclaration tool) {
        if (tool.parameters() == null || tool.parameters().isEmpty()) {
            ObjectNode empty = HttpTransport.JSON.createObjectNode();
            empty.put("type", "object");
            empty.putObject("properties");
            return empty;
        }
        return HttpTransport.JSON.valueToTree(tool.parameters());
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
