package ai.lango.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
import ai.lango.session.TokenEstimator;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The memory section of the system prompt: layout, order, and the budget. */
class MemorySectionTest {

    /** Reflections and observations with short labels, so the tests read their layout. */
    private static String render(List<String> reflections, List<String> observations, int budget) {
        return render(reflections, observations, budget, new PromptContext("ann", "s1", "hi"));
    }

    private static String render(List<String> reflections, List<String> observations, int budget, PromptContext context) {
        return MemorySection.render(facts("reflection", reflections), facts("observation", observations), budget, context);
    }

    private static List<StoredText> facts(String kind, List<String> texts) {
        return IntStream.range(0, texts.size()).mapToObj(i -> new StoredText(kind + ":" + i, kind + " " + i, texts.get(i)))
                .toList();
    }

    @Test
    void sectionLaysOutReflectionsThenObservationsOldestFirst() {
        String section = render(List.of("R1", "R2"), List.of("O1", "O2"), 4000);
        assertEquals("""
                ## Conversation Memory

                ### Summary

                [reflection 0]
                > R1

                [reflection 1]
                > R2

                ### Recent Observations

                [observation 0]
                > O1

                [observation 1]
                > O2
                """, section);
    }

    @Test
    void nothingToRememberWritesNothing() {
        assertEquals("", render(List.of(), List.of(), 4000));
    }

    @Test
    void noEmptyHeaderWhenOnlyObservationsExist() {
        String section = render(List.of(), List.of("only an observation"), 4000);
        assertFalse(section.contains("### Summary"), section);
        assertTrue(section.contains("### Recent Observations\n\n[observation 0]\n> only an observation"), section);
    }

    @Test
    void budgetTooSmallForAnythingWritesNothing() {
        assertEquals("", render(List.of("x".repeat(400)), List.of("y".repeat(400)), 20));
    }

    @Test
    void reflectionsFillTheBudgetFirstAndObservationsTakeWhatIsLeft() {
        String reflection = "r".repeat(400); // 100 tokens
        String observation = "o".repeat(200); // 50 tokens
        List<String> observations = IntStream.range(0, 10).mapToObj(i -> i + observation).toList();
        int budget = 400;

        String section = render(List.of(reflection, reflection), observations, budget);

        assertTrue(TokenEstimator.estimate(section) <= budget, "within budget: " + TokenEstimator.estimate(section));
        assertEquals(2, count(section, reflection), "both reflections fit first");
        int keptObservations = count(section, observation);
        assertTrue(keptObservations > 0 && keptObservations < 10, "observations fill the rest: " + keptObservations);
        assertTrue(section.contains("9" + observation), "the newest observation is kept");
        assertFalse(section.contains("0" + observation), "the oldest is the one left out");
    }

    @Test
    void reflectionsAloneFillingTheBudgetLeaveNoObservations() {
        String reflection = "r".repeat(1200); // 300 tokens
        String section = render(List.of(reflection), List.of("a short observation"), 320);
        assertTrue(section.contains(reflection));
        assertFalse(section.contains("### Recent Observations"), section);
    }

    @Test
    void stopsAtTheFirstItemThatDoesNotFit() {
        // newest first: the big middle reflection does not fit, so the older small one is not reached either.
        String section = render(List.of("old small", "m".repeat(2000), "new small"), List.of(), 100);
        assertTrue(section.contains("new small"));
        assertFalse(section.contains("old small"), section);
    }

    @Test
    void atMostFiveReflectionsAndTwentyObservationsAreConsidered() {
        List<String> reflections = new ArrayList<>();
        IntStream.range(0, 8).forEach(i -> reflections.add("reflection-" + i));
        List<String> observations = new ArrayList<>();
        IntStream.range(0, 30).forEach(i -> observations.add("observation-" + i));

        String section = render(reflections, observations, 100_000);

        assertEquals(5, count(section, "reflection-"));
        assertEquals(20, count(section, "observation-"));
        assertTrue(section.contains("reflection-7") && !section.contains("> reflection-2\n"), "the newest five");
        assertTrue(section.indexOf("observation-10") < section.indexOf("observation-29"), "oldest first");
    }

    @Test
    void whatAnEarlierSectionShowsIsNotRepeated() {
        PromptContext context = new PromptContext("ann", "s1", "hi");
        context.showing("observation:0");
        String section = render(List.of(), List.of("shown by RAG", "only here"), 4000, context);
        assertFalse(section.contains("shown by RAG"), section);
        assertTrue(section.contains("only here") && context.alreadyShown("observation:1"));
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

    @Test
    void theWholeSectionStaysWithinTheBudgetEvenForManySmallItems() {
        // Estimated one by one, each small item would round down to one token and too many would "fit".
        List<String> observations = java.util.Collections.nCopies(20, "abcd");
        String section = render(List.of(), observations, 20);
        assertTrue(TokenEstimator.estimate(section) <= 20, section);
        assertTrue(section.startsWith(MemorySection.TITLE + "\n"), section);
    }
}
