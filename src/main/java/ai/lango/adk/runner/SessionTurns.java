package ai.lango.adk.runner;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One turn at a time per session: a second turn waits, in arrival order, up to a timeout. A
 * session's entry lives only while someone holds or waits for it, so idle sessions cost nothing.
 */
final class SessionTurns {

    private static final class Entry {
        final Semaphore turn = new Semaphore(1, true);
        int users;
    }

    /** A held turn; closing it lets the next one run. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** Waits for the session's turn; {@link BusyException} when the timeout passes first. */
    Held acquire(String sessionId, Duration timeout) throws InterruptedException, BusyException {
        Entry entry = entries.compute(sessionId, (key, existing) -> {
            Entry e = existing == null ? new Entry() : existing;
            e.users++;
            return e;
        });
        boolean acquired = false;
        try {
            acquired = entry.turn.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            if (!acquired) {
                leave(sessionId);
            }
        }
        if (!acquired) {
            throw new BusyException();
        }
        return () -> {
            entry.turn.release();
            leave(sessionId);
        };
    }

    /** Sessions with a turn running or waiting (for tests and metrics). */
    int active() {
        return entries.size();
    }

    private void leave(String sessionId) {
        entries.compute(sessionId, (key, e) -> --e.users == 0 ? null : e);
    }

    /** The session's turn did not come within the timeout. */
    static final class BusyException extends Exception {
        BusyException() {
            super(null, null, false, false);
        }
    }
}
