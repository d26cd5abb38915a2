package ai.lango.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.Message;
import ai.lango.session.ToolCall;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the observer and the reflector read their inputs. */
class MemoryPromptsTest {

    @Test
    void messagesAreWrittenWithRolesToolInputsAndResults() {
        List<Message> messages = List.of(
                new Message("user", "Write hello to notes.txt", Instant.EPOCH, "user", List.of()),
                new Message("assistant", "", Instant.EPOCH, "lango-agent",
                        List.of(new ToolCall("c1", "fs_write", "{\"path\":\"notes.txt\"}", null))),
                new Message("tool", "", Instant.EPOCH, "lango-agent", List.of(new ToolCall("c1", "fs_write", null, "{\"bytes\":5}"))),
                new Message("assistant", "Done.", Instant.EPOCH, "lango-agent", List.of()));
        assertEquals("""
                [user]: Write hello to notes.txt
                [assistant]:\s
                  [tool:fs_write] {"path":"notes.txt"}
                [tool]:\s
                  [result] {"bytes":5}
                [assistant]: Done.
                """, MemoryPrompts.messages(messages));
    }

    @Test
    void observationsAreNumberedFromOne() {
        assertEquals("Observation 1:\nfirst\n\nObservation 2:\nsecond\n\n", MemoryPrompts.observations(List.of("first", "second")));
    }

    @Test
    void reflectionsCarryTheirGeneration() {
        assertEquals("Reflection 1 (gen 1):\nold\n\nReflection 2 (gen 2):\nnewer\n\n", MemoryPrompts.reflections(List.of(
                new MemoryPrompts.Generation("old", 1), new MemoryPrompts.Generation("newer", 2))));
    }

    @Test
    void promptsAreTheOriginalTexts() {
        assertTrue(MemoryPrompts.OBSERVER.startsWith("You are a conversation memory assistant. Your task is to compress the"
                + " following conversation messages into a concise observation note.\n\nFocus on capturing:\n- Key decisions made\n"));
        assertTrue(MemoryPrompts.OBSERVER.endsWith("Write a concise paragraph (2-5 sentences) capturing the essential information."));
        assertTrue(MemoryPrompts.REFLECTOR.endsWith("Write a concise summary (3-8 sentences) that captures all essential context."));
    }
}
