package ai.lango.net.sse;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code text/event-stream} body event by event, by the WHATWG parsing rules: UTF-8, one
 * leading byte order mark skipped, LF, CRLF and CR line ends alike, comment lines (":") ignored,
 * {@code event:} and {@code data:} fields (several data lines joined with "\n"), {@code id:} (one
 * with a NUL ignored) and {@code retry:} (digits only) remembered for the whole stream, unknown
 * fields ignored. An event without data is not dispatched, but its id and retry count. An event is
 * only delivered once its terminating blank line has arrived, so a stream cut midway never yields a
 * half-received event. A line or an event's data longer than the limits given is a {@link TooLarge},
 * never held whole.
 */
public final class SseReader implements Closeable {

    /** One dispatched event; {@code event} is "message" when the stream named none; {@code id} the last event id, or null. */
    public record Event(String event, String data, String id) {
    }

    /** A line or an event's data longer than the reader's limit. */
    public static final class TooLarge extends IOException {
        TooLarge(String message) {
            super(message);
        }
    }

    private final BufferedReader reader;
    private final long maxLine;
    private final long maxData;
    private boolean lastWasCr;
    private boolean started;
    private String idBuffer;
    private String lastEventId;
    private long retry = -1;

    /** A reader without limits: for bodies whose size is bounded elsewhere. */
    public SseReader(InputStream in) {
        this(in, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * @param maxLine the longest line read, in characters
     * @param maxData the most data one event may carry, in characters
     */
    public SseReader(InputStream in, long maxLine, long maxData) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.maxLine = maxLine;
        this.maxData = maxData;
    }

    /** The next line without its end (\n, \r\n or \r), or null at the end of the stream. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = reader.read()) >= 0) {
            if (!started) {
                started = true;
                if (c == '\uFEFF') {
                    continue;
                }
            }
            if (lastWasCr && c == '\n' && line.length() == 0) {
                lastWasCr = false;
                continue; // the \n of a \r\n
            }
            lastWasCr = c == '\r';
            if (c == '\n' || c == '\r') {
                return line.toString();
            }
            if (line.length() >= maxLine) {
                throw new TooLarge("a line of more than " + maxLine + " characters");
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    /** The next event with data, or null at the end of the stream. */
    public Event next() throws IOException {
        String eventName = null;
        StringBuilder data = null;
        String line;
        while ((line = readLine()) != null) {
            if (line.isEmpty()) {
                lastEventId = idBuffer;
                if (data != null) {
                    return new Event(eventName == null || eventName.isEmpty() ? "message" : eventName, data.toString(), lastEventId);
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
                    long size = (data == null ? 0 : data.length() + 1) + (long) value.length();
                    if (size > maxData) {
                        throw new TooLarge("an event of more than " + maxData + " characters");
                    }
                    if (data == null) {
                        data = new StringBuilder(value);
                    } else {
                        data.append('\n').append(value);
                    }
                }
                case "id" -> {
                    if (value.indexOf('\0') < 0) {
                        idBuffer = value;
                    }
                }
                case "retry" -> {
                    if (!value.isEmpty() && value.length() < 19 && value.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                        retry = Long.parseLong(value);
                    }
                }
                default -> {
                    // unknown fields are ignored, as the standard says
                }
            }
        }
        return null;
    }

    /** The id the stream gave last (with an event or without data), as a resumption's Last-Event-ID; null when none. */
    public String lastEventId() {
        return lastEventId;
    }

    /** The reconnection time the stream asked for last, in milliseconds; -1 when it asked none. */
    public long retry() {
        return retry;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
