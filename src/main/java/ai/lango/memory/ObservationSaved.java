package ai.lango.memory;

/** A CDI event: an observation of the session was stored; {@code previousId} is the session's observation before it, if any. */
public record ObservationSaved(long id, String sessionKey, Long previousId, String content) {
}
