package ai.lango.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a learning matches an error, and which tools the learning engine observes. */
class LearningTest {

    private static Learning learning(String trigger, String pattern) {
        return new Learning(1, "", trigger, pattern, "", "a fix", ErrorPatterns.GENERAL, Confidence.Source.SAVED, 0, 2, 0,
                0.714, Instant.EPOCH, Instant.EPOCH);
    }

    @Test
    void aLearningMatchesAnErrorThatContainsItsPattern() {
        Learning l = learning("tool:fs_list", "maximum context length exceeded");
        assertEquals(4, l.match("openai rejected the request (400): This model's maximum context length exceeded"));
    }

    @Test
    void halfOfThePatternsKeywordsAreEnough() {
        Learning l = learning("tool:exec", "connection refused by database server");
        assertTrue(l.match("error: connection refused by proxy") > 0, "connection, refused of 4 keywords");
        assertEquals(0, l.match("database is read-only"), "one of four is not enough");
    }

    @Test
    void withoutAPatternTheTriggersToolMustBeNamed() {
        Learning l = learning("tool:fs_read", "");
        assertTrue(l.match("tool \"fs_read\" failed: NoSuchFileException: <path>") > 0);
        assertEquals(0, l.match("tool \"fs_write\" failed"));
    }

    @Test
    void anUnrelatedErrorDoesNotMatch() {
        assertEquals(0, learning("tool:fs_list", "maximum context length exceeded").match("permission denied"));
    }

    @Test
    void theToolTriggerIsExact() {
        assertEquals("tool:exec", Learning.toolTrigger("exec"));
        assertFalse(Learning.toolTrigger("exec_bg").equals(Learning.toolTrigger("exec")), "exec never confirms exec_bg");
    }

    @Test
    void toolsThatManageWhatTheAgentKnowsAreNotObserved() {
        assertTrue(LearningEngine.observed("fs_read"));
        assertTrue(LearningEngine.observed("exec"));
        assertFalse(LearningEngine.observed("save_learning"));
        assertFalse(LearningEngine.observed("search_knowledge"));
        assertFalse(LearningEngine.observed("learning_stats"));
        assertFalse(LearningEngine.observed("memory_list_observations"));
        assertFalse(LearningEngine.observed("transfer_to_agent"));
    }

    @Test
    void aKnownSolutionReadsWhenTriggerOccursFix() {
        assertEquals("When 'tool:fs_list' occurs: a fix", KnownSolutionsContext.line(learning("tool:fs_list", "x")));
    }
}
