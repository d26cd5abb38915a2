package ai.lango.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.knowledge.Keywords;
import org.junit.jupiter.api.Test;

/** Recall ranks remembered texts by the query's keywords they contain, ignoring case. */
class MemoryRecallTest {

    @Test
    void scoreCountsTheKeywordsATextContains() {
        assertEquals(2, MemoryRecall.score("The user plans a trip to LISBON by train.", Keywords.of("Lisbon train tickets")));
    }

    @Test
    void aTextWithoutAKeywordScoresNothing() {
        assertEquals(0, MemoryRecall.score("Nothing relevant here.", Keywords.of("Lisbon")));
    }
}
