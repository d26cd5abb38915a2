package ai.lango.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The keywords a user's message is searched by. */
class KeywordsTest {

    @Test
    void stopWordsShortWordsAndPunctuationGo() {
        assertEquals(List.of("deploy", "staging", "server"), Keywords.of("How do I deploy to the staging server?"));
    }

    @Test
    void atMostFiveKeywordsInTheOrderTheyAppear() {
        assertEquals(List.of("alpha", "beta", "gamma", "delta", "epsilon"),
                Keywords.of("alpha beta gamma delta epsilon zeta eta"));
    }

    @Test
    void keywordsAreLowerCasedDeduplicatedAndCut() {
        List<String> words = Keywords.of("Docker docker DOCKER " + "x".repeat(80) + " snake_case-word");
        assertEquals(List.of("docker", "x".repeat(50), "snake_case-word"), words);
    }

    @Test
    void nothingSearchableGivesNothing() {
        assertEquals(List.of(), Keywords.of("a I ? !"));
        assertEquals(List.of(), Keywords.of(null));
    }
}
