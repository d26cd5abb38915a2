package ai.lango.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Group commit: writes that callers on many threads hand in at about the same time are written in
 * one transaction, and each caller returns only once the transaction holding its write committed —
 * so a write is as durable on return as it would be alone, for a fraction of the commits.
 *
 * <p>No thread of its own: a caller that finds nobody writing writes what is queued, its own write
 * with it, and returns; everybody else waits for their own result alone, and the executor's thread
 * (below) or, without one, one of them writes the next batch. A caller writes one batch at most, so
 * a turn never waits on other sessions' writes for longer than its own transaction. A write handed
 * in without waiting ({@link #submitAsync}) makes a thread of the given executor the writer when
 * nobody writes, and that thread also takes over what is left queued after a caller's batch (it
 * writes until the queue is empty). A batch that fails is written again one write per transaction,
 * so one bad write fails only its own caller.
 */
final class GroupCommit<T> {

    /** How the writes reach the database. */
    interface Writer<T> {
        /** Writes all in one transaction; the result of each, in order. Throws when the transaction failed. */
        List<Boolean> writeAll(List<T> batch);

        /** Writes one in a transaction of its own. */
        boolean writeOne(T write);
    }

    private record Pending<T>(T write, CompletableFuture<Boolean> result) {
    }

    /** How long a caller waits for its own write before it looks whether anybody is still writing. */
    private static final long LOOK_AGAIN_MS = 100;

    private final Writer<T> writer;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending<T>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    /** Without an executor, waiting callers sleep on it; notified after every batch and whenever the writer stops. */
    private final Object batchWritten = new Object();
    /** The executor of the last write handed in without waiting: it writes what no caller leads. */
    private volatile Executor writers;

    GroupCommit(Writer<T> writer, int maxBatch) {
        this.writer = writer;
        this.maxBatch = maxBatch;
    }

    /** Writes {@code write} with whatever else is waiting; returns once it is committed (or failed). */
    boolean submit(T write) {
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>());
        queue.add(pending);
        try {
            while (!pending.result().isDone()) {
                if (writing.compareAndSet(false, true)) {
                    try {
                        writeBatch();
                    } finally {
                        stopWriting();
                    }
                    handOver();
                } else if (writers != null) {
                    // The writer, or the executor's thread it hands over to, writes this one: wake for
                    // it alone. Waking every waiter after every batch convoyed them through the monitor
                    // under load. The bound only looks again in case nobody took over.
                    try {
                        pending.result().get(LOOK_AGAIN_MS, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException stillQueued) {
                        // lead, if nobody writes now
                    }
                } else {
                    synchronized (batchWritten) {
                        while (!pending.result().isDone() && writing.get()) {
                            batchWritten.wait();
                        }
                    }
                }
            }
            return pending.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the write was being committed", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    /**
     * Hands {@code write} in without waiting: the future completes once it is committed (or failed).
     * When nobody writes, a thread of {@code writers} becomes the writer.
     */
    CompletableFuture<Boolean> submitAsync(T write, Executor writers) {
        this.writers = writers;
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>());
        queue.add(pending);
        if (!writing.get()) { // else the writer's last look at the queue finds it
            try {
                writers.execute(this::lead);
            } catch (RuntimeException refused) {
                if (queue.remove(pending)) { // else a writer took it already, and its result is the writer's
                    pending.result().completeExceptionally(refused);
                }
            }
        }
        return pending.result();
    }

    /**
     * After a caller's batch: what is still queued goes to a thread of the executor, if there is
     * one, so that no caller writes more than once for others; else a waiting caller leads.
     */
    private void handOver() {
        Executor async = writers;
        if (async != null && !queue.isEmpty() && !writing.get()) {
            try {
                async.execute(this::lead);
            } catch (RuntimeException refused) {
                // the waiting callers write it
            }
        }
    }

    /**
     * An executor's thread writes while there is work and nobody else writes. A write queued just
     * as it stops is seen by its last look at the queue, or by its own caller's turn to write.
     */
    private void lead() {
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            try {
                while (writeBatch()) {
                    notifyWaiting();
                }
            } finally {
                stopWriting();
            }
        }
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
