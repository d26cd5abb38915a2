package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HybridIndexTest {

    private static final float[] X = {1, 0, 0};
    private static final float[] Y = {0, 1, 0};
    private static final float[] Z = {0, 0, 1};
    private static final Set<String> ALL = Set.copyOf(Document.COLLECTIONS);

    private final HybridIndex index = new HybridIndex();

    @AfterEach
    void close() {
        index.close();
    }

    private static Document knowledge(String key, String text) {
        return new Document(Document.KNOWLEDGE, key, null, text);
    }

    private static List<String> ids(List<Hit> hits) {
        return hits.stream().map(Hit::sourceId).toList();
    }

    @Test
    void aDocumentFoundOnlyByMeaningAndOneFoundOnlyByWordsBothComeBack() {
        index.put(knowledge("meaning", "pager duty hands over on Mondays"), X);
        index.put(knowledge("words", "the on-call rotation wiki page"), Y);
        index.refresh();
        List<String> found = ids(index.search("rotation", X, ALL, Set.of(), 2));
        assertEquals(Set.of("meaning", "words"), Set.copyOf(found));
    }

    @Test
    void whatBothSidesFindComesFirst() {
        index.put(knowledge("both", "deploy from the release branch"), X);
        index.put(knowledge("vector", "ship production builds"), X);
        index.put(knowledge("keyword", "release notes"), Z);
        index.refresh();
        assertEquals("both", index.search("release", X, ALL, Set.of(), 3).get(0).sourceId());
    }

    @Test
    void observationsAreFoundOnlyInTheirOwnSessionAndKnowledgeInAny() {
        index.put(new Document(Document.OBSERVATION, "1", "a", "hotel in Rome"), X);
        index.put(knowledge("k", "hotel policy"), X);
        index.refresh();
        assertEquals(Set.of("1", "k"), Set.copyOf(ids(index.search("hotel", X, ALL, Set.of("a"), 10))));
        assertEquals(List.of("k"), ids(index.search("hotel", X, ALL, Set.of("b"), 10)));
        assertEquals(List.of("k"), ids(index.search("hotel", X, ALL, Set.of(), 10)), "no session, no memory");
    }

    @Test
    void aUsersOwnKnowledgeIsFoundOnlyByThemAndSharedKnowledgeByEveryone() {
        index.put(new Document(Document.KNOWLEDGE, "pin", "ann", "bank pin 4921"), X);
        index.put(new Document(Document.KNOWLEDGE, "pin", "bob", "bank pin 1234"), X);
        index.put(knowledge("policy", "bank policy"), X);
        index.refresh();
        assertEquals(Set.of("ann", "shared"), scopes(index.search("bank", X, ALL, Set.of("ann"), 10)));
        assertEquals(Set.of("bob", "shared"), scopes(index.search("bank", X, ALL, Set.of("bob"), 10)));
        assertEquals(Set.of("shared"), scopes(index.search("bank", X, ALL, Set.of(), 10)), "no user: what is shared");
        assertTrue(index.holdsAny(ALL, Set.of()));
        index.remove(new Document(Document.KNOWLEDGE, "pin", "ann", "").key());
        index.refresh();
        assertEquals(Set.of("bob", "shared"), scopes(index.search("bank", X, ALL, Set.of("ann", "bob"), 10)),
                "ann's entry went, bob's of the same key stayed");
    }

    private static Set<String> scopes(List<Hit> hits) {
        return hits.stream().map(h -> h.shared() ? "shared" : h.scope()).collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void onlyTheCollectionsAskedFor() {
        index.put(knowledge("k", "hotel policy"), X);
        index.put(new Document(Document.LEARNING, "7", null, "hotel api timeout"), X);
        index.refresh();
        assertEquals(List.of("7"), ids(index.search("hotel", X, Set.of(Document.LEARNING), Set.of(), 10)));
    }

    @Test
    void theLimitIsKept() {
        for (int i = 0; i < 20; i++) {
            index.put(knowledge("k" + i, "hotel " + i), X);
        }
        index.refresh();
        assertEquals(5, index.search("hotel", X, ALL, Set.of(), 5).size());
        assertEquals(0, index.search("hotel", X, ALL, Set.of(), 0).size());
    }

    @Test
    void aVectorOfAnotherLengthIsFoundByWordsOnly() {
        index.put(knowledge("stale", "hotel policy"), new float[0]);
        index.put(knowledge("current", "nothing alike"), X);
        index.refresh();
        assertEquals(List.of("current"), ids(index.search("unrelated", X, ALL, Set.of(), 10)));
        assertTrue(ids(index.search("hotel", X, ALL, Set.of(), 10)).contains("stale"));
        assertEquals(List.of("stale"), ids(index.search("hotel", null, ALL, Set.of(), 10)), "no query vector: words alone");
    }

    @Test
    void belowTheMinimumSimilarityOnlyWordsCount() {
        index.put(knowledge("far", "nothing alike"), Y);
        index.refresh();
        assertTrue(index.search("unrelated", X, ALL, Set.of(), 10, 0.3).isEmpty());
        assertEquals(1, index.search("unrelated", X, ALL, Set.of(), 10).size());
    }

    @Test
    void itKnowsWhenASearchHasNothingToFind() {
        assertFalse(index.holdsAny(ALL, Set.of("a")));
        index.put(new Document(Document.OBSERVATION, "1", "a", "x"), X);
        assertTrue(index.holdsAny(ALL, Set.of("a")));
        assertFalse(index.holdsAny(ALL, Set.of("b")));
        index.remove("observation:1");
        assertFalse(index.holdsAny(ALL, Set.of("a")));
    }

    @Test
    void replacingADocumentKeepsOneEntry() {
        index.put(knowledge("k", "old text"), X);
        index.put(knowledge("k", "new text"), Y);
        index.refresh();
        assertEquals(1, index.size());
        assertEquals("new text", index.contentOf("knowledge:k").orElseThrow());
        assertTrue(index.search("old", Z, ALL, Set.of(), 10).stream().noneMatch(h -> h.content().equals("old text")));
    }
}
