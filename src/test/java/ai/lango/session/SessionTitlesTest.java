package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionTitlesTest {

    @Test
    void aTitleIsTheFirstReadableLineOfTheFirstMessage() {
        assertEquals(Optional.of("Plan the release"), SessionTitles.of("\n  \nPlan   the release\nwith all the steps"));
    }

    @Test
    void aLongLineIsCutAtAWordWithAnEllipsis() {
        String title = SessionTitles.of("Please summarise the architecture document of the payment service and list its open questions")
                .orElseThrow();
        assertTrue(title.length() <= SessionTitles.MAX_CHARS && title.endsWith("…") && !title.endsWith(" …"), title);
        assertTrue(title.startsWith("Please summarise the architecture document"), title);
    }

    @Test
    void invisibleCharactersAreDroppedAndNothingReadableIsNoTitle() {
        assertEquals(Optional.of("hi there"), SessionTitles.of("hi\u200B\u0007 there"));
        assertEquals(Optional.empty(), SessionTitles.of(" \u200B\n\t"));
        assertEquals(Optional.empty(), SessionTitles.of(null));
    }

    @Test
    void aScheduledMessagesTitleLeavesItsMarkOut() {
        assertEquals(Optional.of("check the build"), SessionTitles.ofMessage("[Scheduled 2030-01-01T07:00:00Z] check the build"));
        assertEquals(Optional.of("[draft] notes"), SessionTitles.ofMessage("[draft] notes"));
        assertEquals(Optional.of("[Scheduled x] kept"), SessionTitles.of("[Scheduled x] kept"), "a title the user gives is theirs");
    }
}
