package ai.lango.turn;

/**
 * A turn cut off by a crash that is not resumed after all: a new message in its session came first (its user moved
 * on), or another server took it over.
 */
public class TurnSupersededException extends RuntimeException {

    public TurnSupersededException() {
        super("a new message in its session came before it was resumed");
    }
}
