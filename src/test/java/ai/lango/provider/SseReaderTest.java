package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {

    private static List<SseReader.Event> read(String stream) throws IOException {
        List<SseReader.Event> events = new ArrayList<>();
        try (SseReader reader = new SseReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)))) {
            SseReader.Event e;
            while ((e = reader.next()) != null) {
                events.add(e);
            }
        }
        return events;
    }

    @Test
    void dataOnlyEventsAreNamedMessage() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "{\"a\":1}", null),
                        new SseReader.Event("message", "[DONE]", null)),
                read("data: {\"a\":1}\n\ndata: [DONE]\n\n"));
    }

    @Test
    void eventNameAppliesToItsOwnEventOnly() throws IOException {
        List<SseReader.Event> events = read("event: message_start\ndata: {}\n\ndata: x\n\n");

        assertEquals("message_start", events.get(0).event());
        assertEquals("message", events.get(1).event());
    }

    @Test
    void multiLineDataIsJoinedWithNewlines() throws IOException {
        assertEquals("line one\nline two\n", read("data: line one\ndata: line two\ndata:\n\n").get(0).data());
    }

    @Test
    void commentsAreIgnored() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "kept", null)),
                read(": keep-alive\n\n: OPENROUTER PROCESSING\ndata: kept\n\n"));
    }

    @Test
    void crlfAndCrLineEndsAreTolerated() throws IOException {
        List<SseReader.Event> events = read("event: a\r\ndata: one\r\n\r\ndata: two\rdata: three\r\r");

        assertEquals(List.of(new SseReader.Event("a", "one", null), new SseReader.Event("message", "two\nthree", null)),
                events);
    }

    @Test
    void onlyOneSpaceAfterTheColonIsStripped() throws IOException {
        assertEquals("  indented", read("data:   indented\n\n").get(0).data());
        assertEquals("tight", read("data:tight\n\n").get(0).data());
    }

    @Test
    void eventCutOffBeforeItsBlankLineIsNotDelivered() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "whole", null)),
                read("data: whole\n\ndata: {\"half\":"));
    }

    @Test
    void eventWithoutDataIsNotDispatched() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "x", null)), read("event: ping\n\ndata: x\n\n"));
    }

    @Test
    void idAndUnknownFieldsAreHandled() throws IOException {
        SseReader.Event e = read("id: 7\nretry: 100\nfoo: bar\ndata: d\n\n").get(0);

        assertEquals("7", e.id());
        assertEquals("d", e.data());
    }

    @Test
    void utf8AndByteOrderMarkAreHandled() throws IOException {
        assertEquals("héllo ✓", read("\uFEFFdata: héllo ✓\n\n").get(0).data());
    }

    @Test
    void emptyStreamHasNoEvents() throws IOException {
        try (SseReader reader = new SseReader(new ByteArrayInputStream(new byte[0]))) {
            assertNull(reader.next());
        }
    }
}
