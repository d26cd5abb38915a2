package ai.lango.turn;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How a turn is stopped where it waits: whatever blocks the turn's thread (the model's stream, a
 * running tool) registers how to end that wait, and {@link #abort} ends it. The turn's thread is
 * never interrupted: it may be writing to the embedded database, whose files an interrupt closes.
 * One per running turn, found by the turn's own thread.
 */
public final class TurnAbort {

    private static final ThreadLocal<TurnAbort> CURRENT = new ThreadLocal<>();

    private final List<Runnable> waits = new CopyOnWriteArrayList<>();
    private volatile boolean aborted;

    private TurnAbort() {
    }

    /** A new turn on the calling thread; {@link #end} it on the same thread. */
    public static TurnAbort begin() {
        TurnAbort abort = new TurnAbort();
        CURRENT.set(abort);
        return abort;
    }

    /** The calling thread's turn, when it runs one. */
    public static Optional<TurnAbort> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The calling thread's turn is over. */
    public void end() {
        CURRENT.remove();
    }

    /**
     * Registers how to end a wait (close a stream, cancel a future) for the time the returned handle
     * is open; a turn already aborted ends it at once.
     */
    public Registration onAbort(Runnable endWait) {
        waits.add(endWait);
        if (aborted) {
            endWait.run();
        }
        return () -> waits.remove(endWait);
    }

    /** Ends every wait of the turn, now and any registered later. */
    public void abort() {
        aborted = true;
        waits.forEach(Runnable::run);
    }

    public boolean aborted() {
        return aborted;
    }

    /** A registered wait; closing it unregisters it. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Registers {@code endWait} with the calling thread's turn, if it runs one. */
    public static Registration whileWaiting(Runnable endWait) {
        return current().map(turn -> turn.onAbort(endWait)).orElse(() -> { });
    }
}
