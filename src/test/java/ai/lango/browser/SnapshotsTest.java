package ai.lango.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SnapshotsTest {

    @Test
    void aShortSnapshotIsKeptWhole() {
        assertEquals("- button \"Go\" [ref=e2]", Snapshots.cap("- button \"Go\" [ref=e2]", 100));
    }

    @Test
    void aLongSnapshotIsCutAtALineWithANoteOnNarrowingIt() {
        StringBuilder page = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            page.append("- link \"Item ").append(i).append("\" [ref=e").append(i).append("]\n");
        }
        String capped = Snapshots.cap(page.toString(), 2000);
        assertTrue(capped.length() < 2400, "capped to about the limit: " + capped.length());
        String shown = capped.substring(0, capped.indexOf("\n[snapshot cut"));
        assertTrue(page.toString().startsWith(shown + "\n"), "cut at a line's end");
        assertTrue(capped.contains("of " + page.length() + " characters shown"));
        assertTrue(capped.contains("browser_snapshot with target"));
    }

    @Test
    void refsAsTheModelCopiesThemBecomeAriaRefs() {
        assertEquals("aria-ref=e12", Snapshots.selector("e12"));
        assertEquals("aria-ref=e12", Snapshots.selector("ref=e12"));
        assertEquals("aria-ref=e12", Snapshots.selector("[ref=e12]"));
        assertEquals("aria-ref=f1e3", Snapshots.selector(" f1e3 "));
    }

    @Test
    void anythingElseIsACssSelector() {
        assertEquals("#login button.primary", Snapshots.selector("#login button.primary"));
        assertEquals("e12 > a", Snapshots.selector("e12 > a"));
    }
}
