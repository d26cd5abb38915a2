package ai.lango.provider;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code text/event-stream} body event by event, following the WHATWG parsing rules that
 * matter for model providers: {@code event:} and {@code data:} fields, several data lines joined
 * with "\n", comment lines (":") ignored, LF, CRLF and CR line ends alike. An event is only
 * delivered once its terminating blank line has arrived, so a stream cut midway never yields a
 * half-received event.
 */
public final class SseReader implements Closeable {

    /** One dispatched event; {@code event} is "message" when the stream named none. */
    public record Event(String event, String data, String id) {
    }

    private final BufferedReader reader;
    private String lastId;

    public SseReader(InputStream in) {
        this(in, Long.MAX_VALUE);
    }

    /** @param maxLine the longest line read; a longer one is an IOException, never held whole */
    public SseReader(InputStream in, long maxLine) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.maxLine = maxLine;
    }

    private final long maxLine;
    private boolean lastWasCr;

    /** The next line without its end (\n, \r\n or \r, as SSE says), or null at the end of the stream. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = reader.read()) >= 0) {
            if (lastWasCr && c == '\n' && line.length() == 0) {
                lastWasCr = false;
                continue; // the \n of a \r\n
            }
            lastWasCr = c == '\r';
            if (c == '\n' || c == '\r') {
                return line.toString();
            }
            if (line.length() >= maxLine) {
                throw new IOException("a line of more than " + maxLine + " characters");
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    /** The next event, or null at the end of the stream. */
    public Event next() throws IOException {
        String eventName = null;
        StringBuilder data = null;
        String line;
        boolean first = true;
        while ((line = readLine()) != null) {
            if (first && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            first = false;
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(eventName == null ? "message" : eventName, data.toString(), lastId);
                }
                eventName = null; // an event without data is not dispatched
                continue;
            }
            if (line.charAt(0) == ':') {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "event" -> eventName = value;
                case "data" -> {
                    if (data == null) {
                        data = new StringBuilder(value);
                    } else {
                        data.append('\n').append(value);
                    }
                }
                case "id" -> {
                    if (value.indexOf('\0') < 0) {
                        lastId = value;
                    }
                }
                default -> {
                    // "retry" and unknown fields mean nothing to a single request.
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
