package ai.lango.memory;

import ai.lango.prompt.Bounded;
import ai.lango.session.Message;
import ai.lango.session.ToolCall;
import java.util.List;

/** What the observer and the reflector ask the model, and how their inputs are written. */
public final class MemoryPrompts {

    /** Compresses a stretch of conversation into one observation. */
    public static final String OBSERVER = """
            You are a conversation memory assistant. Your task is to compress the following conversation \
            messages into a concise observation note.

            Focus on capturing:
            - Key decisions made
            - User's intent and goals
            - Important facts and context mentioned
            - Task progress and outcomes
            - Any action items or next steps

            Do NOT include:
            - Verbatim tool outputs or code blocks
            - Redundant greetings or pleasantries
            - Technical details that can be re-derived

            Write a concise paragraph (2-5 sentences) capturing the essential information.""";

    /** Folds observations (or, for meta-reflection, reflections) into one summary. */
    public static final String REFLECTOR = """
            You are a conversation memory assistant. Your task is to condense these observation notes into \
            a single, comprehensive summary.

            Merge overlapping information, resolve any contradictions (prefer later observations), and create \
            a coherent narrative of the conversation so far.

            Write a concise summary (3-8 sentences) that captures all essential context.""";

    /** The most characters of one message, tool input or tool result the observer reads; the rest is cut with a marker. */
    static final int MAX_ITEM_CHARS = 2_000;
    /** The most characters of one observer, reflector or meta-reflection input. */
    static final int MAX_INPUT_CHARS = 48_000;

    private MemoryPrompts() {
    }

    /** Messages as the observer reads them: {@code [role]: content}, then each tool call's input and result. */
    public static String messages(List<Message> messages) {
        StringBuilder text = new StringBuilder();
        for (Message message : messages) {
            text.append('[').append(message.role()).append("]: ").append(Bounded.text(message.content(), MAX_ITEM_CHARS))
                    .append('\n');
            for (ToolCall call : message.toolCalls()) {
                if (call.input() != null) {
                    text.append("  [tool:").append(call.name()).append("] ").append(Bounded.text(call.input(), MAX_ITEM_CHARS))
                            .append('\n');
                }
                if (call.output() != null) {
                    text.append("  [result] ").append(Bounded.text(call.output(), MAX_ITEM_CHARS)).append('\n');
                }
            }
        }
        return Bounded.text(text.toString(), MAX_INPUT_CHARS);
    }

    /** Observations as the reflector reads them: {@code Observation n:} then its text, numbered from 1. */
    public static String observations(List<String> contents) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < contents.size(); i++) {
            text.append("Observation ").append(i + 1).append(":\n").append(contents.get(i)).append("\n\n");
        }
        return Bounded.text(text.toString(), MAX_INPUT_CHARS);
    }

    /** A reflection to consolidate: its text and its generation. */
    public record Generation(String content, int generation) {
    }

    /** Reflections as meta-reflection reads them: {@code Reflection n (gen g):} then its text. */
    public static String reflections(List<Generation> reflections) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < reflections.size(); i++) {
            Generation r = reflections.get(i);
            text.append("Reflection ").append(i + 1).append(" (gen ").append(r.generation()).append("):\n")
                    .append(r.content()).append("\n\n");
        }
        return Bounded.text(text.toString(), MAX_INPUT_CHARS);
    }
}
