package ai.lango.net.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The one writer of server-sent events: each edge's bytes, every frame flushed, lines a reader reads back. */
class SseWriterTest {

    /** What a writer wrote, and how often it flushed. */
    private record Written(String text, int flushes) {
        String readBack() throws IOException {
            try (SseReader reader = new SseReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))) {
                return reader.next().data();
            }
        }
    }

    @FunctionalInterface
    private interface Frames {
        void write(SseWriter writer) throws IOException;
    }

    private static Written written(Function<ByteArrayOutputStream, SseWriter> kind, Frames frames) throws IOException {
        int[] flushes = {0};
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                flushes[0]++;
            }
        };
        frames.write(kind.apply(out));
        return new Written(out.toString(StandardCharsets.UTF_8), flushes[0]);
    }

    @Test
    void eachEdgesFramesAreItsBytesAsBeforeAndEachIsFlushed() throws IOException {
        assertEquals(new Written("data: {\"a\":1}\n\n", 1), written(SseWriter::spaced, w -> w.data("{\"a\":1}")), "A2A's");
        assertEquals(new Written("data:{\"a\":1}\n\n", 1), written(SseWriter::unspaced, w -> w.data("{\"a\":1}")),
                "run_sse's, as ADK's own server writes them");
        assertEquals(new Written("event: message\ndata: {}\n\n", 1), written(SseWriter::spaced, w -> w.event("message", "{}")),
                "/mcp's");
        assertEquals(new Written(": waiting\n\n", 1), written(SseWriter::spaced, w -> w.comment("waiting")), "a comment");
    }

    @Test
    void dataWithLineEndsIsOneDataLinePerLineAndReadsBackWhole() throws IOException {
        Written lines = written(SseWriter::spaced, w -> w.data("one\r\ntwo\rthree\nfour"));
        assertEquals("data: one\ndata: two\ndata: three\ndata: four\n\n", lines.text());
        assertEquals("one\ntwo\nthree\nfour", lines.readBack());
    }

    @Test
    void aCommentWithALineEndCannotEndTheFrameEarly() throws IOException {
        assertEquals("real", written(SseWriter::spaced, w -> {
            w.comment("a\n\ndata: injected");
            w.data("real");
        }).readBack());
    }

    @Test
    void anEventTypeWithALineEndIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> written(SseWriter::spaced, w -> w.event("a\ndata: x", "y")));
    }
}
