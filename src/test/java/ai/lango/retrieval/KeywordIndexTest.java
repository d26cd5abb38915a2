package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeywordIndexTest {

    private final KeywordIndex index = new KeywordIndex();

    @AfterEach
    void close() {
        index.close();
    }

    @Test
    void theDocumentWithTheRarerTermRanksFirst() {
        index.put("common", "g", "the server runs the server");
        index.put("rare", "g", "the server runs flyway migrations");
        index.put("other", "g", "the server answers");
        index.refresh();
        assertEquals("rare", index.search("server flyway", Set.of("g"), 10).get(0));
    }

    @Test
    void wordsAreMatchedByTheirStems() {
        index.put("d", "g", "The job runs every night.");
        index.refresh();
        assertEquals(List.of("d"), index.search("running jobs", Set.of("g"), 10));
    }

    @Test
    void onlyTheGroupsAskedForAreSearched() {
        index.put("mine", "session-a", "hotel booking");
        index.put("theirs", "session-b", "hotel booking");
        index.refresh();
        assertEquals(List.of("mine"), index.search("hotel", Set.of("session-a"), 10));
        assertEquals(List.of(), index.search("hotel", Set.of(), 10));
    }

    @Test
    void aRemovedOrReplacedDocumentIsNotFoundByItsOldText() {
        index.put("d", "g", "apples");
        index.put("e", "g", "apples and pears");
        index.refresh();
        index.remove("e");
        index.put("d", "g", "oranges");
        index.refresh();
        assertEquals(List.of(), index.search("apples", Set.of("g"), 10));
        assertEquals(List.of("d"), index.search("oranges", Set.of("g"), 10));
    }

    @Test
    void aQueryOfStopWordsOnlyFindsNothing() {
        index.put("d", "g", "the and of");
        index.refresh();
        assertEquals(List.of(), index.search("the and of", Set.of("g"), 10));
    }

    @Test
    void aVeryLongQueryIsAnsweredNotRefused() {
        index.put("d", "g", "needle");
        index.refresh();
        StringBuilder query = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            query.append("word").append(i).append(' ');
        }
        query.append("needle");
        assertEquals(List.of(), index.search(query.toString(), Set.of("g"), 10), "terms past the first 1,000 are not searched");
        assertEquals(List.of("d"), index.search("needle " + query, Set.of("g"), 10));
    }
}
