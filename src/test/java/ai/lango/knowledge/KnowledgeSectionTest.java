package ai.lango.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.prompt.PromptContext;
import ai.lango.session.TokenEstimator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The knowledge and known-solutions sections: labelled, quoted facts, at most five, within the budget, each once per prompt, no empty header. */
class KnowledgeSectionTest {

    private static KnowledgeEntry entry(String key, String content) {
        return KnowledgeEntry.of(key, "rule", content, List.of("deploy"), "user");
    }

    private static String render(List<KnowledgeEntry> entries, int budget, PromptContext context) {
        return KnowledgeSection.render("## User Knowledge", entries.stream().map(KnowledgeSection::fact).toList(), budget, context);
    }

    private static PromptContext turn() {
        return new PromptContext("ann", "s1", "deploy");
    }

    @Test
    void aKnowledgeEntryIsLabelledWithWhatAndWhenThenQuoted() {
        String section = render(List.of(entry("deploy-branch", "Deploy from release only")), 1000, turn());
        assertTrue(section.startsWith("## User Knowledge\n\n[shared knowledge \"deploy-branch\" (rule), saved with save_knowledge from user]"),
                section);
        assertTrue(section.endsWith("]\n> Deploy from release only\n"), section);
    }

    @Test
    void aUsersOwnEntryIsMarkedAsTheirsAndTheSameKeySharedIsAnotherFact() {
        String section = render(List.of(entry("deploy-branch", "Deploy from main").ownedBy("ann"),
                entry("deploy-branch", "Deploy from release only")), 1000, turn());
        assertTrue(section.contains("[this user's knowledge \"deploy-branch\" (rule)"), section);
        assertTrue(section.contains("[shared knowledge \"deploy-branch\" (rule)"), section);
        assertTrue(section.contains("> Deploy from main") && section.contains("> Deploy from release only"), section);
    }

    @Test
    void atMostFiveEntries() {
        List<KnowledgeEntry> entries = IntStream.range(0, 8).mapToObj(i -> entry("k" + i, "fact " + i)).toList();
        String section = render(entries, 1000, turn());
        assertTrue(section.contains("> fact 4") && !section.contains("> fact 5"), section);
    }

    @Test
    void entriesStopAtTheBudgetAndTheSectionStaysWithinIt() {
        List<KnowledgeEntry> entries = List.of(entry("a", "a".repeat(120)), entry("b", "b".repeat(400)), entry("c", "c"));
        String section = render(entries, 100, turn());
        assertTrue(TokenEstimator.estimate(section) <= 100, section);
        assertTrue(section.contains("a".repeat(120)), "the first whole");
        assertTrue(section.contains("more characters cut]") && !section.contains("> c"), "the second cut to what is left, then the end");
    }

    @Test
    void anEntryLongerThanTheWholeBudgetIsCutNotLeftOut() {
        String section = render(List.of(entry("big", "x".repeat(10_000))), 1000, turn());
        assertTrue(section.contains("> xxxx") && section.contains("more characters cut]"), section);
        assertTrue(TokenEstimator.estimate(section) <= 1000);
    }

    @Test
    void nothingFitsNothingIsWritten() {
        assertEquals("", render(List.of(entry("a", "a".repeat(400))), 20, turn()));
        assertEquals("", render(List.of(), 1000, turn()));
    }

    @Test
    void anEntryAnEarlierSectionShowsIsNotRepeated() {
        PromptContext context = turn();
        KnowledgeEntry pin = entry("pin", "the PIN is kept in the vault");
        assertTrue(render(List.of(pin), 1000, context).contains("vault"));
        assertEquals("", render(List.of(pin), 1000, context), "shown once per prompt");
        assertTrue(render(List.of(pin), 1000, turn()).contains("vault"), "and again in the next model call's prompt");
    }

    @Test
    void relevanceCountsKeywordsInKeyContentAndTags() {
        KnowledgeEntry e = entry("deploy-branch", "Releases go out on Fridays");
        assertEquals(2, e.relevance(Keywords.of("deploy on fridays")));
        assertEquals(0, e.relevance(Keywords.of("lunch menu")));
    }

    @Test
    void tagsAreOneLineEachNeverEmptyNeverRepeated() {
        KnowledgeEntry e = KnowledgeEntry.of("k", "fact", "c", List.of("a\nb", " ", "x", "x"), null);
        assertEquals(List.of("a b", "x"), e.tags());
    }
}
