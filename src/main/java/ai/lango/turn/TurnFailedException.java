package ai.lango.turn;

/**
 * A turn that could not run or failed. The message is meant for the user; the cause, when there
 * is one, says whose fault it was (a provider's failure, a session the user does not have, a
 * message too large, a timeout).
 */
public class TurnFailedException extends RuntimeException {

    public TurnFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
