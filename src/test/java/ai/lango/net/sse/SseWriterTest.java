package ai.lango.net.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one writer of server-sent events: each edge's bytes, every frame flushed, lines a reader reads back. */
class SseWriterTest {

    /** What was written, and how often it was flushed. */
    private static final class Sink extends ByteArrayOutputStream {
        int flushes;

        @Override
        public void flush() {
            flushes++;
        }

        String text() {
            return toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void spacedDataIsWhatA2aWrites() throws IOException {
        Sink out = new Sink();
        SseWriter.spaced(out).data("{\"a\":1}");
        assertEquals("data: {\"a\":1}\n\n", out.text());
        assertEquals(1, out.flushes);
    }

    @Test
    void unspacedDataIsWhatAdksOwnServerWrites() throws IOException {
        Sink out = new Sink();
        SseWriter.unspaced(out).data("{\"a\":1}");
        assertEquals("data:{\"a\":1}\n\n", out.text());
    }

    @Test
    void aTypedEventIsWhatMcpWrites() throws IOException {
        Sink out = new Sink();
        SseWriter.spaced(out).event("message", "{}");
        assertEquals("event: message\ndata: {}\n\n", out.text());
    }

    @Test
    void aCommentIsOneLineReadersSkipAndIsFlushed() throws IOException {
        Sink out = new Sink();
        SseWriter.spaced(out).comment("waiting");
        assertEquals(": waiting\n\n", out.text());
        assertEquals(1, out.flushes);
    }

    @Test
    void dataWithLineEndsIsOneDataLinePerLineAndReadsBackWhole() throws IOException {
        Sink out = new Sink();
        SseWriter.spaced(out).data("one\r\ntwo\rthree\nfour");
        assertEquals("data: one\ndata: two\ndata: three\ndata: four\n\n", out.text());
        try (SseReader reader = new SseReader(new ByteArrayInputStream(out.toByteArray()))) {
            assertEquals("one\ntwo\nthree\nfour", reader.next().data());
        }
    }

    @Test
    void aCommentWithALineEndCannotEndTheFrameEarly() throws IOException {
        Sink out = new Sink();
        SseWriter writer = SseWriter.spaced(out);
        writer.comment("a\n\ndata: injected");
        writer.data("real");
        try (SseReader reader = new SseReader(new ByteArrayInputStream(out.toByteArray()))) {
            assertEquals("real", reader.next().data());
        }
    }

    @Test
    void anEventTypeWithALineEndIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SseWriter.spaced(new Sink()).event("a\ndata: x", "y"));
    }
}
