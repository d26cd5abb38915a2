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
}
