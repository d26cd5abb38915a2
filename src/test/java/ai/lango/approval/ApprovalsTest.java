package ai.lango.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a request keeps of a call's arguments: bounded for the person and the audit, exact for the binding. */
class ApprovalsTest {

    @Test
    void longArgumentsAreCutForTheRequestButTheHashCoversThemWhole() {
        String big = "x".repeat(20 * 1024 * 1024);
        Map<String, Object> bounded = Approvals.bounded(Map.of("path", "a.txt", "content", big, "lines", List.of(big)));
        String content = (String) bounded.get("content");
        assertTrue(content.length() < Approvals.MAX_ARG_CHARS + 64, "at most about 2,000 characters: " + content.length());
        assertTrue(content.endsWith("(" + (big.length() - Approvals.MAX_ARG_CHARS) + " more characters)"), content.substring(1990));
        assertTrue(((String) ((List<?>) bounded.get("lines")).get(0)).length() < Approvals.MAX_ARG_CHARS + 64);
        assertEquals("a.txt", bounded.get("path"));
    }

    @Test
    void theSameArgumentsInAnotherOrderAreTheSameCall() {
        assertEquals(Approvals.canonical(Map.of("a", 1, "b", "two")), Approvals.canonical(new java.util.TreeMap<>(Map.of("b", "two", "a", 1))));
    }
}
