package ai.lango.a2a;

import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/** An A2A message: who wrote it, its parts, and the conversation (context) and task it belongs to. */
public record Message(String messageId, String contextId, String taskId, Role role, List<Part> parts) {

    /** Who wrote a message. */
    public enum Role {
        USER, AGENT
    }

    public Message {
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    /** A user's text in a context (null: the receiving agent starts one). */
    public static Message user(String text, String contextId) {
        return new Message(UUID.randomUUID().toString(), contextId, null, Role.USER, List.of(Part.text(text)));
    }

    /** An agent's message of these parts in a task. */
    public static Message agent(String contextId, String taskId, List<Part> parts) {
        return new Message(UUID.randomUUID().toString(), contextId, taskId, Role.AGENT, parts);
    }

    /** An agent's text in a task. */
    public static Message agent(String text, String contextId, String taskId) {
        return agent(contextId, taskId, List.of(Part.text(text)));
    }

    /** This message placed in a task and context. */
    public Message in(String contextId, String taskId) {
        return new Message(messageId == null ? UUID.randomUUID().toString() : messageId, contextId, taskId, role, parts);
    }

    /** The text of its text parts, one part per line. */
    public String text() {
        return parts.stream().filter(Part::isText).map(Part::text).collect(Collectors.joining("\n"));
    }

    /** What a reader of plain text sees: every part, one per line. */
    public String plainText() {
        return parts.stream().map(Part::asPlainText).collect(Collectors.joining("\n"));
    }
}
