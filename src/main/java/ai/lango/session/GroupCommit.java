package ai.lango.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Group commit: writes that callers on many threads hand in at about the same time are written in
 * one transaction, and each caller returns only once the transaction holding its write committed —
 * so a write is as durable on return as it would be alone, for a fraction of the commits.
 *
 * <p>No thread of its own: the first caller that finds nobody writing becomes the writer and writes
 * batches until the queue is empty; everybody else waits for their own result. A write handed in
 * without waiting ({@link #submitAsync}) makes a thread of the given executor the writer when
 * nobody writes. A batch that fails is written again one write per transaction, so one bad write
 * fails only its own caller.
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

    private final Writer<T> writer;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending<T>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    GroupCommit(Writer<T> writer, int maxBatch) {
        this.writer = writer;
        this.maxBatch = maxBatch;
    }

    /** Writes {@code write} with whatever else is waiting; returns once it is committed (or failed). */
    boolean submit(T write) {
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>());
        queue.add(pending);
        lead();
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
     * Hands {@code write} in without waiting: the future completes once it is committed (or failed).
     * When nobody writes, a thread of {@code writers} becomes the writer.
     */
    CompletableFuture<Boolean> submitAsync(T write, Executor writers) {
        Pending<T> pending = new Pending<>(write, new CompletableFuture<>());
        queue.add(pending);
        if (!writing.get()) { // else the writer's last look at the queue finds it
            try {
                writers.execute(this::lead);
            } catch (RuntimeException refused) {
                pending.result().completeExceptionally(refused);
            }
        }
        return pending.result();
    }

    /**
     * Leads while there is work and nobody else leads. A write queued just as the writer stops is
     * seen by the writer's last look at the queue, or by its own caller's turn to lead.
     */
    private void lead() {
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            try {
                writeQueued();
            } finally {
                writing.set(false);
            }
        }
    }

    private void writeQueued() {
        List<Pending<T>> batch = new ArrayList<>();
        while (true) {
            batch.clear();
            for (Pending<T> next; batch.size() < maxBatch && (next = queue.poll()) != null; ) {
                batch.add(next);
            }
            if (batch.isEmpty()) {
                return;
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
        }
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
