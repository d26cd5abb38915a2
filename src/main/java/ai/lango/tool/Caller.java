package ai.lango.tool;

import ai.lango.turn.SessionRef;

/**
 * Who calls a tool: the user and the session of the turn, for tools whose answer depends on them;
 * whether the turn's credential administers (what its tools save is then what every user shares);
 * and whether a person approved this very call.
 */
public record Caller(String userId, String sessionKey, boolean admin, boolean approved) {

    /** The same caller, for a call a person approved. */
    public Caller asApproved() {
        return new Caller(userId, sessionKey, admin, true);
    }

    /** Who reads what the call answers: this caller (a secret they may not use is unnamed to them). */
    public ai.lango.masking.Audience audience() {
        return new ai.lango.masking.Audience(userId, admin);
    }

    /** The session of the turn, or null when there is none. */
    public SessionRef session() {
        return userId == null || sessionKey == null ? null : SessionRef.of(userId, sessionKey);
    }
}
