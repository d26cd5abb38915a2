package ai.lango.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Group commit: writes that callers on many threads hand in at about the same time are written in
 * one transaction, and each caller returns only once the transaction holding its write committed —
 * so a write is as durable on return as it would be alone, for a fraction of the commits.
 *
 * <p>No thread of its own: a caller that finds nobody writing writes what is queued, its own write
 * with it, and returns; everybody else waits for their own result alone, and the executor's thread
 * (below) or, without one, one of them writes the next batch. A caller writes one batch at most, so
 * a turn never waits on other sessions' writes for longer than its own transaction. A batch that
 * fails is written again one write per transaction, so one bad write fails only its own caller.
 *
 * <p>A write handed in without waiting ({@link #submitAsync}) lingers: it joins the next batch a
 * waiting caller's write starts, and is written by a thread of the given executor at the latest
 * {@code linger} after it came — unless somebody waits for it ({@link #await}), which writes
 * everything queued at once. A user's message, handed in while the model is called, thus rides
 * along with other turns' answers instead of taking a transaction of its own, and an answer less
 * often waits behind a batch of questions.
 */
final class GroupCommit<T> {

    /** How the writes reach the database. */
    interface Writer<T> {
        /** Writes all in one transaction; the result of each, in order. Throws when the transaction failed. */
        List<Boolean> writeAll(List<T> batch);

        /** Writes one in a transaction of its own. */
        boolean writeOne(T write);
    }

    /** A queued write; {@code waited} when its caller waits for it (such a write never lingers). */
    private record Pending<T>(T write, CompletableFuture<Boolean> result, boolean waited) {
    }

    /** How long a caller waits for its own write before it looks whether anybody is still writing. */
    private static final long LOOK_AGAIN_MS = 100;

    private final Writer<T> writer;
    private final int maxBatch;
    private final long lingerNanos;
    private final ConcurrentLinkedQueue<Pending<T>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    /** Queued writes whose callers wait for them, not yet taken into a batch. */
    private final AtomicInteger waitedQueued = new AtomicInteger();
    /** Callers in {@link #await}: while there are any, nothing lingers. */
    private final AtomicInteger hurrying = new AtomicInteger();
    /** A thread of the executor sleeps out the linger and then writes what is queued. */
    private final AtomicBoolean lingering = new AtomicBoolean();
    /** Without an executor, waiting callers sleep on it; notified after every batch and whenever the writer stops. */
    private final Object batchWritten = new Object();
    /** The executor of the last write handed in without waiting: it writes what no caller leads. */
    private volatile Executor writers;

    /** {@code linger}: the longest a write handed in without waiting waits for others to join it (zero: none). */
    GroupCommit(Writer<T> writer, int maxBatch, Duration linger) {
        this.writer = writer;
        this.maxBatch = maxBatch;
        this.lingerNanos = linger.toNanos();
    }

    /** Writes {@code write} with whatever else is waiting; returns once it is committed (or failed). */
    boolean submit(T write) {
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>(), true);
        waitedQueued.incrementAndGet();
        queue.add(pending);
        awaitDone(pending.result());
        try {
            return pending.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the write was being committed", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    /**
     * Returns once {@code handedIn} (the result of {@link #submitAsync}, or anything that completes
     * with it) is done, writing what is queued now rather than letting it linger.
     */
    void await(Future<?> handedIn) {
        if (handedIn.isDone()) {
            return;
        }
        hurrying.incrementAndGet();
        try {
            awaitDone(handedIn);
        } finally {
            hurrying.decrementAndGet();
        }
    }

    /** Leads a batch whenever nobody writes, else waits, until {@code own} is done. */
    private void awaitDone(Future<?> own) {
        try {
            while (!own.isDone()) {
                if (!queue.isEmpty() && writing.compareAndSet(false, true)) {
                    try {
                        writeBatch();
                    } finally {
                        stopWriting();
                    }
                    handOver();
                } else if (writers != null || queue.isEmpty()) {
                    // The writer, or the executor's thread it hands over to, writes this one: wake for
                    // it alone. Waking every waiter after every batch convoyed them through the monitor
                    // under load. The bound only looks again in case nobody took over.
                    try {
                        own.get(LOOK_AGAIN_MS, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException stillQueued) {
                        // lead, if nobody writes now
                    } catch (ExecutionException failed) {
                        return; // done; the caller reads how
                    }
                } else {
                    synchronized (batchWritten) {
                        while (!own.isDone() && writing.get()) {
                            batchWritten.wait();
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the write was being committed", e);
        }
    }

    /**
     * Hands {@code write} in without waiting: the future completes once it is committed (or failed).
     * When nobody writes, a thread of {@code writers} writes it once it has lingered.
     */
    CompletableFuture<Boolean> submitAsync(T write, Executor writers) {
        this.writers = writers;
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>(), false);
        queue.add(pending);
        if (!writing.get()) { // else the writer's last look at the queue finds it
            try {
                linger(writers);
            } catch (RuntimeException refused) {
                if (queue.remove(pending)) { // else a writer took it already, and its result is the writer's
                    pending.result().completeExceptionally(refused);
                }
            }
        }
        return pending.result();
    }

    /** Whether what is queued must be written now: somebody waits for a write in it. */
    private boolean urgent() {
        return waitedQueued.get() > 0 || hurrying.get() > 0 || lingerNanos == 0;
    }

    /** A thread of {@code async} writes what is queued once the linger is over (one such thread at a time). */
    private void linger(Executor async) {
        if (!lingering.compareAndSet(false, true)) {
            return; // the one lingering writes this too
        }
        Thread caller = Thread.currentThread();
        try {
            async.execute(() -> {
                try {
                    // An executor with every thread busy runs this on the caller (CallerRunsPolicy):
                    // then write at once rather than hold up the caller's turn.
                    if (Thread.currentThread() != caller) {
                        LockSupport.parkNanos(lingerNanos);
                    }
                } finally {
                    lingering.set(false);
                }
                lead(true);
            });
        } catch (RuntimeException refused) {
            lingering.set(false);
            throw refused;
        }
    }

    /**
     * After a batch: what is still queued goes to a thread of the executor, if there is one — at
     * once when somebody waits for it, else once it has lingered — so that no caller writes more
     * than once for others; else a waiting caller leads.
     */
    private void handOver() {
        Executor async = writers;
        if (async != null && !queue.isEmpty() && !writing.get()) {
            try {
                if (urgent()) {
                    async.execute(() -> lead(false));
                } else {
                    linger(async);
                }
            } catch (RuntimeException refused) {
                // the waiting callers write it
            }
        }
    }

    /**
     * An executor's thread writes while nobody else writes and there is work: everything queued
     * when {@code all} (the linger is over), else as long as somebody waits for it. A write queued
     * just as it stops is seen by its last look at the queue, or by its own caller's turn to write.
     */
    private void lead(boolean all) {
        while (!queue.isEmpty() && (all || urgent()) && writing.compareAndSet(false, true)) {
            try {
                while ((all || urgent()) && writeBatch()) {
                    notifyWaiting();
                }
            } finally {
                stopWriting();
            }
        }
        handOver(); // what is left lingers
    }

    private void stopWriting() {
        writing.set(false);
        notifyWaiting();
    }

    private void notifyWaiting() {
        synchronized (batchWritten) {
            batchWritten.notifyAll();
        }
    }

    /** Writes the head of the queue (up to the batch limit) in one transaction; false when the queue was empty. */
    private boolean writeBatch() {
        List<Pending<T>> batch = new ArrayList<>();
        for (Pending<T> next; batch.size() < maxBatch && (next = queue.poll()) != null; ) {
            batch.add(next);
            if (next.waited()) {
                waitedQueued.decrementAndGet();
            }
        }
        if (batch.isEmpty()) {
            return false;
        }
        try {
            write(batch);
        } finally {
            // Nobody waits forever, whatever went wrong.
            for (Pending<T> pending : batch) {
                if (!pending.result().isDone()) {
                    pending.result().completeExceptionally(new IllegalStateException("the write was not committed"));
                }
            }
        }
        return true;
    }

    private void write(List<Pending<T>> batch) {
        List<Boolean> results;
        try {
            results = writer.writeAll(batch.stream().map(Pending::write).toList());
        } catch (RuntimeException failed) {
            if (batch.size() == 1) {
                batch.get(0).result().completeExceptionally(failed);
                return;
            }
            for (Pending<T> pending : batch) {
                try {
                    pending.result().complete(writer.writeOne(pending.write()));
                } catch (RuntimeException alone) {
                    pending.result().completeExceptionally(alone);
                }
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).result().complete(results.get(i));
        }
    }
}
