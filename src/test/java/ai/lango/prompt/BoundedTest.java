package ai.lango.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundedTest {

    private static final String NOTE = "cut for this request; the tool received it whole";

    @Test
    void shortTextAndSmallValuesPassUnchanged() {
        assertEquals("hello", Bounded.text("hello", 10));
        Map<String, Object> args = Map.of("path", "a.txt");
        assertSame(args, Bounded.value(args, 100, NOTE));
    }

    @Test
    void longTextKeepsItsStartAndSaysHowMuchWasCut() {
        String cut = Bounded.text("x".repeat(1_000_000), 1000);
        assertTrue(cut.length() <= 1000, "bounded: " + cut.length());
        assertTrue(cut.startsWith("xxxx") && cut.matches("(?s).*…\\[\\d+ more characters cut\\]$"), cut.substring(cut.length() - 40));
    }

    @Test
    void aMegabyteArgumentBecomesABoundedValidObjectWithANote() throws Exception {
        Map<String, Object> args = Map.of("key", "pin", "content", "y".repeat(1_000_000));
        Object cut = Bounded.value(args, 16_000, NOTE);
        String json = new ObjectMapper().writeValueAsString(cut);
        assertTrue(json.length() <= 16_000, "bounded: " + json.length());
        Map<?, ?> map = new ObjectMapper().readValue(json, Map.class);
        assertEquals("pin", map.get("key"), "short values stay whole");
        assertTrue(((String) map.get("content")).contains("more characters cut"));
        assertEquals(NOTE, map.get(Bounded.NOTE));
    }

    @Test
    void aHugeListIsShortenedWhenItsStringsAreAlreadyShort() throws Exception {
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            entries.add(Map.of("name", "file-" + i, "size", i));
        }
        Object cut = Bounded.value(Map.of("entries", entries), 16_000, NOTE);
        String json = new ObjectMapper().writeValueAsString(cut);
        assertTrue(json.length() <= 16_000, "bounded: " + json.length());
        assertTrue(json.contains("more items cut"), json.substring(json.length() - 200));
        assertTrue(json.contains("file-0"), "the first entries are kept");
    }

    @Test
    void aSurrogatePairIsNeverSplit() {
        String emoji = "\uD83D\uDE00".repeat(100);
        String cut = Bounded.text(emoji, 51);
        assertTrue(!Character.isHighSurrogate(cut.charAt(cut.indexOf('…') - 1)), cut);
    }
}
