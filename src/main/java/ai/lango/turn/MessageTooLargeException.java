package ai.lango.turn;

/**
 * A user message larger than the history's token budget: the truncation keeps the newest message
 * whatever its size, so such a message would make every request of its session exceed the model's
 * budget. Refused before anything is stored.
 */
public final class MessageTooLargeException extends RuntimeException {

    /** What the edges call it. */
    public static final String CODE = "message_too_large";

    public MessageTooLargeException(int tokens, int budget) {
        super("the message is about " + tokens + " tokens, more than the model's history budget of " + budget
                + " tokens (lango.agent.token-budget); send it in smaller parts", null, false, false);
    }
}
