package ai.lango.turn;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How a turn is stopped where it waits: whatever blocks the turn (the model's stream, a running tool, a
 * request waiting for its answer) registers how to end that wait, and {@link #abort} ends it. The turn's
 * thread is never interrupted: it may be writing to the embedded database, whose files an interrupt closes.
 * One per turn, part of its {@link TurnContext}: whoever waits for the turn finds it there, on any thread.
 */
public final class TurnAbort {

    private final List<Runnable> waits = new CopyOnWriteArrayList<>();
    private volatile boolean aborted;

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
}
