package ai.lango.session;

import java.time.Instant;
import java.util.List;

/**
 * One stored message. {@code raw} is the original event as the agent framework serialised it,
 * kept so that it reads back identical; null for messages stored without one.
 */
public record Message(String role, String content, Instant timestamp, String author, List<ToolCall> toolCalls,
                      String raw) {

    public Message {
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public Message(String role, String content, Instant timestamp, String author, List<ToolCall> toolCalls) {
        this(role, content, timestamp, author, toolCalls, null);
    }

    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
