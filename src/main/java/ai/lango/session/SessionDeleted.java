package ai.lango.session;

import ai.lango.turn.SessionRef;

/** A CDI event: the session was deleted, with its messages (and, by the database's cascade, what hangs on it). */
public record SessionDeleted(SessionRef session) {
}
