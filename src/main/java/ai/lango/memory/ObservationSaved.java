package ai.lango.memory;

import ai.lango.turn.SessionRef;

/** A CDI event: an observation of the session was stored; {@code previousId} is the session's observation before it, if any. */
public record ObservationSaved(long id, SessionRef session, Long previousId, String content) {
}
