package ai.lango.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Server-sent events read from a stream (the HTML living standard's rules: {@code id}, {@code
 * event}, {@code data} lines joined by newlines, {@code retry}, comments skipped), one event at a
 * time, never holding more than {@link McpTransport#MAX_MESSAGE_CHARS} of one.
 */
final class SseEvents {

    /** One event; {@code id} and {@code retry} as last given on the stream (null / -1 when never). */
    record Event(String id, String type, String data, long retry) {
    }

    private SseEvents() {
    }

    /** Reads events until the stream ends; a line or event too large is an IOException. */
    static void read(InputStream stream, Consumer<Event> events) throws IOException {
        Reader in = new InputStreamReader(stream, StandardCharsets.UTF_8);
        StringBuilder line = new StringBuilder();
        StringBuilder data = new StringBuilder();
        String type = null;
        String id = null;
        long retry = -1;
        boolean hasData = false;
        int c;
        boolean lastWasCr = false;
        while ((c = in.read()) >= 0) {
            if (c == '\n' && lastWasCr) {
                lastWasCr = false;
                continue;
            }
            lastWasCr = c == '\r';
            if (c != '\n' && c != '\r') {
                if (line.length() >= McpTransport.MAX_MESSAGE_CHARS) {
                    throw new IOException("an event line of more than " + McpTransport.MAX_MESSAGE_CHARS + " characters");
                }
                line.append((char) c);
                continue;
            }
            if (line.length() == 0) {
                if (hasData) {
                    events.accept(new Event(id, type == null ? "message" : type, data.toString(), retry));
                } else if (id != null || retry >= 0) {
                    events.accept(new Event(id, "priming", "", retry)); // an id (or retry) to resume from, no message
                }
                data.setLength(0);
                hasData = false;
                type = null;
                continue;
            }
            String field = line.toString();
            line.setLength(0);
            if (field.startsWith(":")) {
                continue;
            }
            int colon = field.indexOf(':');
            String name = colon < 0 ? field : field.substring(0, colon);
            String value = colon < 0 ? "" : field.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (name) {
                case "data" -> {
                    if (data.length() + value.length() > McpTransport.MAX_MESSAGE_CHARS) {
                        throw new IOException("an event of more than " + McpTransport.MAX_MESSAGE_CHARS + " characters");
                    }
                    if (hasData) {
                        data.append('\n');
                    }
                    data.append(value);
                    hasData = hasData || !value.isEmpty() || data.length() > 0;
                }
                case "event" -> type = value;
                case "id" -> id = value;
                case "retry" -> {
                    try {
                        retry = Long.parseLong(value.strip());
                    } catch (NumberFormatException ignored) {
                        // not a number: ignored, as the standard says
                    }
                }
                default -> {
                    // unknown fields are ignored
                }
            }
        }
    }
}
