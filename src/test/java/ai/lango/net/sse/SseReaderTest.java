package ai.lango.net.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one reader of server-sent events: the WHATWG rules, and limits that hold nothing too large. */
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

    private static SseReader reader(String stream) {
        return new SseReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));
    }

    /** MCP's priming event: an id (and a retry) to resume from, without data. */
    @Test
    void anIdAndARetryWithoutDataAreRememberedThoughNoEventIsDispatched() throws IOException {
        try (SseReader reader = reader("id: 42\nretry: 250\n\n")) {
            assertNull(reader.next());
            assertEquals("42", reader.lastEventId());
            assertEquals(250, reader.retry());
        }
    }

    @Test
    void anIdCountsOnlyOnceItsEventIsWhole() throws IOException {
        try (SseReader reader = reader("id: 1\ndata: a\n\nid: 2\ndata: cut")) {
            assertEquals("1", reader.next().id());
            assertNull(reader.next());
            assertEquals("1", reader.lastEventId(), "the cut event's id is not one to resume from");
        }
    }

    @Test
    void anEmptyDataFieldIsAnEventWithEmptyData() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "", "p")), read("id: p\ndata:\n\n"));
    }

    @Test
    void anEmptyEventTypeIsMessage() throws IOException {
        assertEquals("message", read("event:\ndata: x\n\n").get(0).event());
    }

    @Test
    void retryIsDigitsOnlyAndAnIdWithNulIsIgnored() throws IOException {
        try (SseReader reader = reader("retry: 1x\nretry: -5\nid: ok\nid: bad\u0000id\n\n")) {
            assertNull(reader.next());
            assertEquals(-1, reader.retry());
            assertEquals("ok", reader.lastEventId());
        }
    }

    @Test
    void onlyAByteOrderMarkThatStartsTheStreamIsSkipped() throws IOException {
        assertEquals(List.of(new SseReader.Event("message", "a", null)), read("\uFEFFdata: a\n\n\uFEFFdata: b\n\n"));
    }

    @Test
    void aLineLongerThanTheLimitIsTooLargeWithoutBeingHeld() {
        SseReader reader = new SseReader(new ByteArrayInputStream(("data: " + "x".repeat(100)).getBytes(StandardCharsets.UTF_8)), 50,
                Long.MAX_VALUE);
        SseReader.TooLarge tooLarge = assertThrows(SseReader.TooLarge.class, reader::next);
        assertTrue(tooLarge.getMessage().contains("more than 50 characters"), tooLarge.getMessage());
    }

    @Test
    void anEventWhoseLinesTogetherPassTheLimitIsTooLarge() {
        String lines = ("data: " + "x".repeat(30) + "\n").repeat(4) + "\n";
        SseReader reader = new SseReader(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)), 50, 100);
        SseReader.TooLarge tooLarge = assertThrows(SseReader.TooLarge.class, reader::next);
        assertTrue(tooLarge.getMessage().contains("an event of more than 100 characters"), tooLarge.getMessage());
    }
}
