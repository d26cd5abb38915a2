package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One part of a message or an artifact, whichever version carried it: text, structured data, a file by
 * URL or a file's bytes (base64), with an optional media type and file name. 1.0 writes
 * {@code {"text":…}}, {@code {"data":…}}, {@code {"url":…}}, {@code {"raw":…}}; 0.3 {@code {"kind":"text",…}},
 * {@code {"kind":"data",…}}, {@code {"kind":"file","file":{"uri"|"bytes",…}}} ({@link A2aWire}).
 */
public record Part(String text, JsonNode data, String url, String raw, String filename, String mediaType) {

    public static Part text(String text) {
        return new Part(text, null, null, null, null, null);
    }

    public static Part data(JsonNode data) {
        return new Part(null, data, null, null, null, "application/json");
    }

    /** A file's bytes, base64-encoded. */
    public static Part file(String base64, String filename, String mediaType) {
        return new Part(null, null, null, base64, filename, mediaType);
    }

    public boolean isText() {
        return text != null;
    }

    public boolean isData() {
        return text == null && data != null;
    }

    /** What a reader of plain text sees: the text, data as JSON, a file named; never null. */
    public String asPlainText() {
        if (text != null) {
            return text;
        }
        if (data != null) {
            return data.toString();
        }
        String name = filename != null ? filename : url != null ? url : "";
        return "[file" + (name.isEmpty() ? "" : ": " + name) + "]";
    }
}
