package ai.lango.a2a;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * An A2A message: {@code {"role":"user"|"agent","parts":[…],"messageId":…,"contextId":…,
 * "taskId":…,"kind":"message"}}. The context id ties the messages of one conversation together.
 */
public record Message(String role, List<Part> parts, String messageId, String contextId, String taskId, String kind) {

    public Message {
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    /** A user's text message in a context (null: let the receiving agent start one). */
    public static Message user(String text, String contextId) {
        return new Message(A2aProtocol.ROLE_USER, List.of(Part.text(text)), UUID.randomUUID().toString(), contextId, null,
                A2aProtocol.KIND_MESSAGE);
    }

    /** An agent's text answer in a context. */
    public static Message agent(String text, String contextId) {
        return new Message(A2aProtocol.ROLE_AGENT, List.of(Part.text(text)), UUID.randomUUID().toString(), contextId, null,
                A2aProtocol.KIND_MESSAGE);
    }

    /** The text of the text parts, one part per line. */
    public String text() {
        return parts.stream().filter(Part::carriesText).map(Part::text).filter(Objects::nonNull)
                .collect(Collectors.joining("\n"));
    }

    /** The text a reader sees: text parts, data parts as JSON, files mentioned; one part per line. */
    String plainText() {
        return parts.stream().map(Part::asPlainText).filter(Objects::nonNull).collect(Collectors.joining("\n"));
    }
}
