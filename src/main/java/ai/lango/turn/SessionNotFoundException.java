package ai.lango.turn;

/**
 * A turn on a session id that belongs to another user: answered as if the session did not exist,
 * never with a message that says whose it is.
 */
public final class SessionNotFoundException extends RuntimeException {

    public SessionNotFoundException(String sessionId, String userId) {
        super("no session \"" + sessionId + "\" for user \"" + userId + "\"", null, false, false);
    }
}
