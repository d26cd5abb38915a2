package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One part of a message or artifact, told apart by {@code kind}: {@code {"kind":"text","text":…}},
 * {@code {"kind":"data","data":{…}}} or {@code {"kind":"file","file":{…}}}. Lango sends only text.
 */
public record Part(String kind, String text, JsonNode data, JsonNode file) {

    public static Part text(String text) {
        return new Part(A2aProtocol.PART_TEXT, text, null, null);
    }

    /** A text part; also one without a kind that carries text (lenient reading of older peers). */
    public boolean carriesText() {
        return A2aProtocol.PART_TEXT.equals(kind) || (kind == null && text != null);
    }

    /**
     * What a reader of plain text should see: the text of a text part, the JSON of a data part, and a
     * mention of a file part (its name or URI); null for anything else.
     */
    String asPlainText() {
        if (carriesText()) {
            return text;
        }
        if (A2aProtocol.PART_DATA.equals(kind) && data != null) {
            return data.toString();
        }
        if (A2aProtocol.PART_FILE.equals(kind) && file != null) {
            String name = file.path("name").asText(file.path("uri").asText(""));
            return "[file" + (name.isEmpty() ? "" : ": " + name) + "]";
        }
        return null;
    }
}
