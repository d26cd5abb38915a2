package ai.lango.tool;

import ai.lango.turn.SessionRef;

/** Who calls a tool: the user and the session of the turn, for tools whose answer depends on them. */
public record Caller(String userId, String sessionKey) {

    /** The session of the turn, or null when there is none. */
    public SessionRef session() {
        return userId == null || sessionKey == null ? null : SessionRef.of(userId, sessionKey);
    }
}
