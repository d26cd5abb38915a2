package ai.lango.session;

/** Creating a session under a key that is already taken. */
public class SessionExistsException extends RuntimeException {
    public SessionExistsException(String key) {
        super("session \"" + key + "\" already exists");
    }
}
