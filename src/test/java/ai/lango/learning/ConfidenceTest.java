package ai.lango.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.learning.Confidence.Source;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The confidence rule, row by row as the README's table gives it. */
class ConfidenceTest {

    @ParameterizedTest(name = "{0}: {1} confirmed, {2} failed -> {3}")
    @CsvSource(textBlock = """
            SAVED,    0, 0, 0.600
            SAVED,    1, 0, 0.667
            SAVED,    2, 0, 0.714
            SAVED,    3, 0, 0.750
            SAVED,    5, 0, 0.800
            SAVED,   20, 0, 0.920
            SAVED,    2, 1, 0.625
            SAVED,    0, 1, 0.500
            SAVED,    0, 3, 0.375
            SAVED,    4, 2, 0.636
            SAVED,    6, 2, 0.692
            SAVED,    7, 2, 0.714
            OBSERVED, 0, 0, 0.500
            OBSERVED, 0, 1, 0.333
            OBSERVED, 0, 2, 0.250
            OBSERVED, 0, 8, 0.100
            OBSERVED, 0, 30, 0.100
            OBSERVED, 1, 0, 0.667
            OBSERVED, 2, 0, 0.750
            """)
    void confidenceTable(Source source, int successes, int failures, double expected) {
        assertEquals(expected, Confidence.of(source, successes, failures), 0.0005);
    }

    @Test
    void aSavedFixCrossesTheThresholdAfterTwoConfirmations() {
        assertFalse(Confidence.applies(Confidence.of(Source.SAVED, 1, 0), "use the workspace"));
        assertTrue(Confidence.applies(Confidence.of(Source.SAVED, 2, 0), "use the workspace"));
    }

    @Test
    void anUnconfirmedObservedErrorNeverCrossesIt() {
        for (int failures = 0; failures < 100; failures++) {
            assertTrue(Confidence.of(Source.OBSERVED, 0, failures) <= 0.5);
        }
    }

    @Test
    void aFixThatFailsAgainLosesConfidence() {
        assertTrue(Confidence.of(Source.SAVED, 3, 1) < Confidence.of(Source.SAVED, 3, 0));
    }

    @Test
    void confidenceStaysWithinItsBounds() {
        assertEquals(0.1, Confidence.of(Source.OBSERVED, 0, 1000), 1e-9);
        assertTrue(Confidence.of(Source.SAVED, 1_000_000, 0) <= 1.0);
    }

    @Test
    void noFixIsNeverApplied() {
        assertFalse(Confidence.applies(0.99, ""));
        assertFalse(Confidence.applies(0.99, null));
        assertFalse(Confidence.applies(0.7, "fix"), "above the threshold, not at it");
    }
}
