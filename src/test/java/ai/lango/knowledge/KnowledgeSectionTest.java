package ai.lango.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.TokenEstimator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The knowledge and known-solutions sections: their lines, at most five, within the budget, no empty header. */
class KnowledgeSectionTest {

    private static KnowledgeEntry entry(String key, String content) {
        return KnowledgeEntry.of(key, "rule", content, List.of("deploy"), "user");
    }

    @Test
    void aKnowledgeLineIsCategoryKeyAndContent() {
        assertEquals("- [rule] deploy-branch: Deploy from release only",
                KnowledgeSection.line(entry("deploy-branch", "Deploy from release only")));
    }

    @Test
    void theSectionIsTheTitleThenTheLines() {
        assertEquals("## User Knowledge\n- a\n- b\n", KnowledgeSection.render("## User Knowledge", List.of("- a", "- b"), 1000));
    }

    @Test
    void atMostFiveLines() {
        List<String> lines = IntStream.range(0, 8).mapToObj(i -> "- line " + i).toList();
        String section = KnowledgeSection.render("## User Knowledge", lines, 1000);
        assertEquals(6, section.split("\n").length);
        assertTrue(section.contains("- line 4") && !section.contains("- line 5"));
    }

    @Test
    void linesStopAtTheBudgetAndTheSectionStaysWithinIt() {
        List<String> lines = List.of("- " + "a".repeat(40), "- " + "b".repeat(40), "- " + "c".repeat(40));
        String section = KnowledgeSection.render("## User Knowledge", lines, 25);
        assertTrue(TokenEstimator.estimate(section) <= 25, section);
        assertEquals("## User Knowledge\n- " + "a".repeat(40) + "\n", section);
    }

    @Test
    void nothingFitsNothingIsWritten() {
        assertEquals("", KnowledgeSection.render("## User Knowledge", List.of("- " + "a".repeat(400)), 20));
        assertEquals("", KnowledgeSection.render("## User Knowledge", List.of(), 1000));
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
