package ai.lango.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Per-turn sections of the system prompt: in their order, for this turn, never an empty one, never a failed one. */
class ContextSectionsTest {

    private static ContextSource source(String name, int order, Function<PromptContext, Optional<String>> section) {
        return new ContextSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int order() {
                return order;
            }

            @Override
            public Optional<String> section(PromptContext context) {
                return section.apply(context);
            }
        };
    }

    private static final PromptContext TURN = new PromptContext("ann", "s1", "deploy the app");

    @Test
    void sectionsComeInTheirOrderEachAfterABlankLine() {
        ContextSections sections = new ContextSections(List.of(
                source("memory", ContextSource.MEMORY, c -> Optional.of("## Conversation Memory\n- earlier")),
                source("knowledge", ContextSource.USER_KNOWLEDGE, c -> Optional.of("## User Knowledge\n- [fact] x: y"))));
        assertEquals("\n\n## User Knowledge\n- [fact] x: y\n\n## Conversation Memory\n- earlier", sections.render(TURN));
    }

    @Test
    void aSourceRendersForThisSessionAndMessage() {
        ContextSections sections = new ContextSections(List.of(
                source("echo", 1, c -> Optional.of(c.userId() + "/" + c.sessionKey() + ": " + c.userMessage()))));
        assertEquals("\n\nann/s1: deploy the app", sections.render(TURN));
    }

    @Test
    void nothingToSayAddsNothing() {
        ContextSections sections = new ContextSections(List.of(source("empty", 1, c -> Optional.empty()),
                source("blank", 2, c -> Optional.of("  "))));
        assertEquals("", sections.render(TURN));
    }

    @Test
    void aFailingSourceIsLeftOutAndTheOthersStay() {
        ContextSections sections = new ContextSections(List.of(
                source("broken", 1, c -> {
                    throw new IllegalStateException("database down");
                }),
                source("fine", 2, c -> Optional.of("## Fine"))));
        assertEquals("\n\n## Fine", sections.render(TURN));
    }
}
