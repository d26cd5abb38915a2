package ai.lango.turn;

import java.time.Duration;

/**
 * A turn refused, or ended at its next model call, because its user reached a token or cost budget: the message
 * says what was spent, the limit and when it resets; {@link #retryAfter()} is the time until then.
 */
public class BudgetExceededException extends RuntimeException {

    private final Duration retryAfter;

    public BudgetExceededException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
