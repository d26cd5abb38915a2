package ai.lango.memory;

/** A CDI event: the session's observations and reflections were deleted (by request or with the session). */
public record MemoryCleared(String sessionKey) {
}
