package ai.lango.memory;

import ai.lango.turn.SessionRef;

/** A CDI event: the session's observations and reflections were deleted (by request or with the session). */
public record MemoryCleared(SessionRef session) {
}
