package ai.lango.turn;

/** A turn its user stopped ({@code chat.abort}): it ended where it waited, and nothing of it runs on. */
public class TurnAbortedException extends RuntimeException {

    public TurnAbortedException() {
        super("the turn was stopped by its user");
    }
}
