package ai.lango.session;

/** Writing to a session that is not stored. */
public class UnknownSessionException extends RuntimeException {
    public UnknownSessionException(String key) {
        super("session \"" + key + "\" does not exist");
    }
}
