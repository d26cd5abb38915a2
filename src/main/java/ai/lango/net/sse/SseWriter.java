package ai.lango.net.sse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes server-sent events to a response body, each flushed as it is written, so the reader gets
 * it as it happens. Data with line ends goes out as one {@code data:} line per line (a reader joins
 * them again with "\n"); a comment the same way, each line a {@code :} line readers skip. The
 * edge that writes keeps what is its own: the headers, when the response's first bytes go, and
 * what its comments say.
 */
public final class SseWriter {

    private final OutputStream out;
    private final String dataField;

    private SseWriter(OutputStream out, String dataField) {
        this.out = out;
        this.dataField = dataField;
    }

    /** Fields as most servers write them: {@code data: …}. */
    public static SseWriter spaced(OutputStream out) {
        return new SseWriter(out, "data: ");
    }

    /** Fields as ADK's own server writes them, {@code data:…}, without the space (the same to a reader). */
    public static SseWriter unspaced(OutputStream out) {
        return new SseWriter(out, "data:");
    }

    /** An event of the default type ("message"). */
    public void data(String data) throws IOException {
        write(frame(null, data));
    }

    /** An event of type {@code event}; a name with a line end is refused, since it would end the field. */
    public void event(String event, String data) throws IOException {
        write(frame(event, data));
    }

    /** A comment, which readers skip: {@code : text}. */
    public void comment(String text) throws IOException {
        StringBuilder frame = new StringBuilder();
        for (String line : lines(text)) {
            frame.append(": ").append(line).append('\n');
        }
        write(frame.append('\n').toString());
    }

    /** One event's bytes as text. */
    String frame(String event, String data) {
        StringBuilder frame = new StringBuilder();
        if (event != null) {
            if (event.indexOf('\n') >= 0 || event.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("an event type has no line end");
            }
            frame.append("event: ").append(event).append('\n');
        }
        for (String line : lines(data)) {
            frame.append(dataField).append(line).append('\n');
        }
        return frame.append('\n').toString();
    }

    /** The text's lines, split at \r\n, \r and \n as a reader splits them; one empty line for "". */
    private static String[] lines(String text) {
        return text.split("\r\n|\r|\n", -1);
    }

    private void write(String frame) throws IOException {
        out.write(frame.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
