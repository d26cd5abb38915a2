package ai.lango.session;

/** A session key, app name or user id that cannot be stored (empty or longer than its column). */
public class InvalidSessionKeyException extends IllegalArgumentException {
    public InvalidSessionKeyException(String message) {
        super(message);
    }
}
