package ai.lango.turns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How an A2A caller's words answer a task that waits for approval: only a message that is nothing but a yes or a no. */
class A2aVerdictTest {

    @Test
    void aMessageThatIsOnlyAYesOrANoAnswersAndAnythingElseIsAMessage() {
        for (String yes : List.of("approve", "Approved.", "yes", " YES! ", "y", "ok")) {
            assertEquals(Optional.of(true), A2aTasks.verdict(yes), yes);
        }
        for (String no : List.of("deny", "Denied", "no", "No.", "n", "reject")) {
            assertEquals(Optional.of(false), A2aTasks.verdict(no), no);
        }
        for (String other : List.of("yes, but first tell me why", "no idea", "okay then", "", "approve it later")) {
            assertEquals(Optional.empty(), A2aTasks.verdict(other), other);
        }
    }
}
