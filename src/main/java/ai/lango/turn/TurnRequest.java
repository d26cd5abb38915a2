package ai.lango.turn;

/** One user message for one session, and whether the answer should stream as it is written. */
public record TurnRequest(String userId, String sessionKey, String message, boolean streaming) {

    /** The session the turn runs in. */
    public SessionRef session() {
        return SessionRef.of(userId, sessionKey);
    }
}
