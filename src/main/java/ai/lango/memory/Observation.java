package ai.lango.memory;

import java.time.Instant;

/**
 * What the observer wrote about the stored messages {@code firstMessageId} to {@code lastMessageId};
 * {@code foldedInto} is the reflection that replaced it, null while it is offered to the model.
 */
public record Observation(long id, String content, int tokens, long firstMessageId, long lastMessageId,
                          Instant createdAt, Long foldedInto) {
}
