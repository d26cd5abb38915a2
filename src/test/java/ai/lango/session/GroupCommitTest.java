package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    /** A database that takes a while per transaction and records what each transaction held. */
    private static final class SlowWriter implements GroupCommit.Writer<Integer> {
        final List<List<Integer>> transactions = Collections.synchronizedList(new ArrayList<>());
        final Set<Integer> committed = ConcurrentHashMap.newKeySet();
        final Set<Integer> failing;
        int concurrent;
        volatile int mostConcurrent;

        SlowWriter(Set<Integer> failing) {
            this.failing = failing;
        }

        @Override
        public List<Boolean> writeAll(List<Integer> batch) {
            enter();
            try {
                sleep();
                if (batch.stream().anyMatch(failing::contains)) {
                    throw new IllegalStateException("rolled back");
                }
                transactions.add(List.copyOf(batch));
                committed.addAll(batch);
                return batch.stream().map(w -> w >= 0).toList();
            } finally {
                exit();
            }
        }

        @Override
        public boolean writeOne(Integer write) {
            return writeAll(List.of(write)).get(0);
        }

        private synchronized void exit() {
            concurrent--;
        }

        private synchronized void enter() {
            concurrent++;
            mostConcurrent = Math.max(mostConcurrent, concurrent);
        }

        private static void sleep() {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static List<Future<Boolean>> submitConcurrently(GroupCommit<Integer> commits, List<Integer> writes)
            throws InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (Integer write : writes) {
            results.add(threads.submit(() -> {
                start.await();
                return commits.submit(write);
            }));
        }
        start.countDown();
        threads.shutdown();
        assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS));
        return results;
    }

    @Test
    void concurrentWritesShareTransactionsAndEachReturnsOnlyOnceCommitted() throws Exception {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ZERO);
        List<Integer> writes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            writes.add(i);
        }
        for (Future<Boolean> result : submitConcurrently(commits, writes)) {
            assertTrue(result.get());
        }
        assertEquals(2000, db.committed.size(), "no write lost");
        assertEquals(2000, db.transactions.stream().mapToInt(List::size).sum(), "none written twice");
        assertTrue(db.transactions.size() < 1000, "writes were grouped: " + db.transactions.size() + " transactions");
        assertTrue(db.transactions.stream().allMatch(t -> t.size() <= 64), "no group over the limit");
        assertEquals(1, db.mostConcurrent, "one writer at a time");
    }

    @Test
    void aWriteThatFailsItsGroupFailsOnlyItsOwnCaller() throws Exception {
        SlowWriter db = new SlowWriter(Set.of(7));
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ZERO);
        List<Future<Boolean>> results = submitConcurrently(commits, List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        for (int i = 0; i < results.size(); i++) {
            int write = i + 1;
            if (write == 7) {
                Exception failure = assertThrows(Exception.class, () -> results.get(6).get());
                assertTrue(failure.getCause() instanceof IllegalStateException, failure.toString());
            } else {
                assertTrue(results.get(i).get(), "write " + write);
            }
        }
        assertFalse(db.committed.contains(7));
        assertEquals(9, db.committed.size());
    }

    @Test
    void theWritersAnswerReachesEachCaller() {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ZERO);
        assertTrue(commits.submit(5));
        assertFalse(commits.submit(-1), "an unknown session answers false, not an error");
    }

    @Test
    void writesHandedInWithoutWaitingAreGroupedWithWaitingOnesAndEachCompletesOnlyOnceCommitted() throws Exception {
        SlowWriter db = new SlowWriter(Set.of(13));
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ofMillis(20));
        ExecutorService writers = Executors.newCachedThreadPool();
        List<java.util.concurrent.CompletableFuture<Boolean>> handedIn = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int write = i;
            java.util.concurrent.CompletableFuture<Boolean> result = commits.submitAsync(write, writers);
            // Completed only once its transaction is in: never before the writer recorded it.
            handedIn.add(result.thenApply(ok -> {
                assertTrue(write == 13 || db.committed.contains(write), "completed before it was committed: " + write);
                return ok;
            }));
        }
        List<Future<Boolean>> waited = submitConcurrently(commits, List.of(1000, 1001, 1002, 1003));
        for (int i = 0; i < handedIn.size(); i++) {
            if (i == 13) {
                assertThrows(java.util.concurrent.ExecutionException.class, handedIn.get(13)::get);
            } else {
                assertTrue(handedIn.get(i).get(10, TimeUnit.SECONDS), "write " + i);
            }
        }
        for (Future<Boolean> result : waited) {
            assertTrue(result.get());
        }
        assertEquals(503, db.committed.size(), "every write but the failing one, none lost");
        assertEquals(503, db.transactions.stream().mapToInt(List::size).sum(), "none written twice");
        assertTrue(db.transactions.size() < 250, "writes were grouped: " + db.transactions.size() + " transactions");
        assertEquals(1, db.mostConcurrent, "one writer at a time");
        writers.shutdown();
    }

    /**
     * A write handed in without waiting does not take a transaction of its own: it waits for the
     * next waited write and is committed with it.
     */
    @Test
    void writesHandedInWithoutWaitingLingerAndRideAlongWithTheNextWaitedWrite() throws Exception {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ofSeconds(30));
        ExecutorService writers = Executors.newCachedThreadPool();
        java.util.concurrent.CompletableFuture<Boolean> first = commits.submitAsync(1, writers);
        java.util.concurrent.CompletableFuture<Boolean> second = commits.submitAsync(2, writers);
        Thread.sleep(200);
        assertFalse(first.isDone() || second.isDone(), "lingering, not written yet");
        assertTrue(db.transactions.isEmpty());
        assertTrue(commits.submit(3));
        assertTrue(first.isDone() && second.isDone(), "committed with the waited write");
        assertTrue(first.get() && second.get());
        assertEquals(List.of(List.of(1, 2, 3)), db.transactions);
        writers.shutdownNow();
    }

    /** Nobody else writing: a write handed in without waiting is written once the linger is over, and no sooner. */
    @Test
    void aLingeringWriteIsWrittenOnceItsLingerIsOver() throws Exception {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ofMillis(300));
        ExecutorService writers = Executors.newCachedThreadPool();
        long start = System.nanoTime();
        java.util.concurrent.CompletableFuture<Boolean> handedIn = commits.submitAsync(1, writers);
        java.util.concurrent.CompletableFuture<Boolean> alongside = commits.submitAsync(2, writers);
        assertTrue(handedIn.get(10, TimeUnit.SECONDS) && alongside.get(10, TimeUnit.SECONDS));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMs >= 290, "written after " + tookMs + " ms, before its linger was over");
        assertEquals(List.of(List.of(1, 2)), db.transactions);
        writers.shutdown();
    }

    /** An executor whose threads are all busy runs the lingering on the caller: it writes at once instead of holding the caller up. */
    @Test
    void aLingeringWriteRunOnItsCallersThreadIsWrittenAtOnce() throws Exception {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ofSeconds(30));
        long start = System.nanoTime();
        java.util.concurrent.CompletableFuture<Boolean> handedIn = commits.submitAsync(1, Runnable::run);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(handedIn.isDone() && handedIn.get(), "written on the caller's thread");
        assertTrue(tookMs < 5_000, "the caller was held " + tookMs + " ms");
        assertEquals(List.of(List.of(1)), db.transactions);
    }

    /** Somebody waiting for a lingering write (the answer's first chunk) has it written at once. */
    @Test
    void awaitingALingeringWriteWritesItAtOnce() throws Exception {
        SlowWriter db = new SlowWriter(Set.of());
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ofSeconds(30));
        ExecutorService writers = Executors.newCachedThreadPool();
        java.util.concurrent.CompletableFuture<Boolean> handedIn = commits.submitAsync(1, writers);
        java.util.concurrent.CompletableFuture<Void> derived = handedIn.thenAccept(ok -> { });
        long start = System.nanoTime();
        commits.await(derived);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(derived.isDone() && handedIn.get(), "committed when await returns");
        assertTrue(tookMs < 5_000, "written at once, not after the linger: " + tookMs + " ms");
        assertEquals(List.of(List.of(1)), db.transactions);
        writers.shutdownNow();
    }

    /**
     * A caller writes one batch at most: once its own write is committed it returns, and what was
     * queued meanwhile is written by a caller still waiting (its turn is not held by others' writes).
     */
    @Test
    void aCallerReturnsOnceItsOwnBatchIsCommittedAndLeavesLaterWritesToOthers() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        HeldBatches db = new HeldBatches(releaseFirst, releaseSecond);
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ZERO);
        ExecutorService callers = Executors.newFixedThreadPool(3);
        Future<Boolean> first = callers.submit(() -> commits.submit(1));
        assertTrue(db.firstBatchWriting.await(10, TimeUnit.SECONDS));
        Future<Boolean> second = callers.submit(() -> commits.submit(2));
        Future<Boolean> third = callers.submit(() -> commits.submit(3));
        Thread.sleep(100); // both queued behind the batch being written
        releaseFirst.countDown();
        assertTrue(first.get(10, TimeUnit.SECONDS), "the first caller returned while the next batch is still being written");
        assertFalse(second.isDone() || third.isDone(), "their batch is not committed yet");
        releaseSecond.countDown();
        assertTrue(second.get(10, TimeUnit.SECONDS));
        assertTrue(third.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(List.of(1), List.of(2, 3)), db.sortedTransactions());
        callers.shutdown();
    }

    /**
     * With an executor, a waiting caller wakes for its own write alone; when nobody takes over what is
     * queued (the executor refuses), a waiting caller still writes it, after looking again.
     */
    @Test
    void writesThatNobodyTakesOverAreWrittenByAWaitingCaller() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        HeldBatches db = new HeldBatches(releaseFirst);
        GroupCommit<Integer> commits = new GroupCommit<>(db, 64, Duration.ZERO);
        java.util.concurrent.Executor refusing = task -> {
            throw new java.util.concurrent.RejectedExecutionException("shutting down");
        };
        assertThrows(java.util.concurrent.ExecutionException.class, () -> commits.submitAsync(0, refusing).get());
        ExecutorService callers = Executors.newFixedThreadPool(3);
        Future<Boolean> first = callers.submit(() -> commits.submit(1));
        assertTrue(db.firstBatchWriting.await(10, TimeUnit.SECONDS));
        Future<Boolean> second = callers.submit(() -> commits.submit(2));
        Future<Boolean> third = callers.submit(() -> commits.submit(3));
        Thread.sleep(100); // both queued behind the batch being written
        releaseFirst.countDown();
        assertTrue(first.get(10, TimeUnit.SECONDS));
        assertTrue(second.get(10, TimeUnit.SECONDS), "written although the executor took nothing over");
        assertTrue(third.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(List.of(1), List.of(2, 3)), db.sortedTransactions());
        callers.shutdown();
    }

    /** A database whose n-th transaction waits for the n-th latch given (later ones go through at once). */
    private static final class HeldBatches implements GroupCommit.Writer<Integer> {
        final CountDownLatch firstBatchWriting = new CountDownLatch(1);
        private final List<CountDownLatch> releases;
        private final List<List<Integer>> transactions = Collections.synchronizedList(new ArrayList<>());

        HeldBatches(CountDownLatch... releases) {
            this.releases = List.of(releases);
        }

        @Override
        public List<Boolean> writeAll(List<Integer> batch) {
            int n = transactions.size();
            if (n == 0) {
                firstBatchWriting.countDown();
            }
            if (n < releases.size()) {
                await(releases.get(n));
            }
            transactions.add(List.copyOf(batch));
            return batch.stream().map(w -> true).toList();
        }

        @Override
        public boolean writeOne(Integer write) {
            return writeAll(List.of(write)).get(0);
        }

        /** Each transaction's writes, in order of the transactions. */
        List<List<Integer>> sortedTransactions() {
            return transactions.stream().map(t -> t.stream().sorted().toList()).toList();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
