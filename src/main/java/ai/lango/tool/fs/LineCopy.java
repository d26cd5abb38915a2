package ai.lango.tool.fs;

import ai.lango.tool.ToolException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;

/**
 * Text read as lines without ever holding one whole: characters stream from a reader to a sink
 * that learns where lines begin. A line ends at \n, \r\n or \r (as {@code Files.readAllLines}
 * counts them); a last line without an end counts when it has a character. Memory stays one buffer
 * however long the file or its lines.
 */
final class LineCopy {

    /** What a pass does with the text: each character of line {@code line} (1-based), and each line's end. */
    interface Sink {
        void character(int line, char c) throws IOException, ToolException;

        void lineEnd(int line) throws IOException, ToolException;
    }

    private LineCopy() {
    }

    /** Streams {@code in} through {@code sink}; returns the number of lines. */
    static int stream(Reader in, Sink sink) throws IOException, ToolException {
        char[] buffer = new char[8192];
        int line = 1;
        boolean inLine = false;
        boolean afterCr = false;
        int n;
        while ((n = in.read(buffer)) > 0) {
            for (int i = 0; i < n; i++) {
                char c = buffer[i];
                if (afterCr && c == '\n') {
                    afterCr = false;
                    continue; // the \n of a \r\n
                }
                afterCr = c == '\r';
                if (c == '\n' || c == '\r') {
                    sink.lineEnd(line++);
                    inLine = false;
                } else {
                    sink.character(line, c);
                    inLine = true;
                }
            }
        }
        if (inLine) {
            sink.lineEnd(line++);
        }
        return line - 1;
    }

    /** Counts the lines of {@code in}. */
    static int count(Reader in) throws IOException, ToolException {
        return stream(in, new Sink() {
            @Override
            public void character(int line, char c) {
            }

            @Override
            public void lineEnd(int line) {
            }
        });
    }

    /**
     * Copies {@code in} to {@code out} with lines {@code start..end} (1-based, inclusive; {@code end =
     * start - 1} replaces none) replaced by {@code replacement}'s lines, every line ended by \n.
     */
    static void replace(Reader in, Writer out, int start, int end, String replacement) throws IOException, ToolException {
        boolean[] inserted = {false};
        stream(in, new Sink() {
            @Override
            public void character(int line, char c) throws IOException {
                before(line);
                if (line < start || line > end) {
                    out.write(c);
                }
            }

            @Override
            public void lineEnd(int line) throws IOException {
                before(line);
                if (line < start || line > end) {
                    out.write('\n');
                }
            }

            private void before(int line) throws IOException {
                if (!inserted[0] && line >= start) {
                    write(out, replacement);
                    inserted[0] = true;
                }
            }
        });
        if (!inserted[0]) { // start is one past the last line: append
            write(out, replacement);
        }
    }

    private static void write(Writer out, String replacement) throws IOException {
        if (!replacement.isEmpty()) {
            for (String line : replacement.split("\n", -1)) {
                out.write(line);
                out.write('\n');
            }
        }
    }
}
