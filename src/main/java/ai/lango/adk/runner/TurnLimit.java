package ai.lango.adk.runner;

import com.google.adk.events.Event;
import io.reactivex.rxjava3.core.Flowable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stops a run that keeps calling tools: every event with at least one function call is a turn,
 * and the turn past the limit ends the run with {@link Exceeded}.
 */
final class TurnLimit {

    /** The run called tools more often than allowed. */
    static final class Exceeded extends RuntimeException {
        Exceeded(int limit) {
            super("agent exceeded maximum turn limit (" + limit + ")");
        }
    }

    private TurnLimit() {
    }

    static Flowable<Event> apply(Flowable<Event> events, int limit) {
        return Flowable.defer(() -> {
            AtomicInteger turns = new AtomicInteger();
            // map, not concatMap: no prefetch, so the run is cancelled before it asks the model again.
            return events.map(event -> {
                if (!event.functionCalls().isEmpty() && turns.incrementAndGet() > limit) {
                    throw new Exceeded(limit);
                }
                return event;
            });
        });
    }
}
