package ai.lango.adk.runner;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads user turns run on. A turn spends most of its time waiting for the model, so turns
 * need many threads and little CPU: Liberty's shared executor grows by tuning for throughput, which
 * on a small machine queues concurrent turns behind a handful of threads. These are container
 * threads (a managed thread factory), so JPA and CDI work on them; idle ones end after a minute.
 */
@ApplicationScoped
public class TurnThreads implements Executor {

    /**
     * Turns that run at once; more wait in line. At 256, 400 concurrent sessions (the load benchmark) had a third of
     * their turns wait a whole turn for a thread before their model was even called.
     */
    static final int MAX_CONCURRENT_TURNS = 512;

    /** server.xml's turn threads: platform threads, or virtual ones on Java 21+ (LANGO_TURN_VIRTUAL_THREADS). */
    @Resource(lookup = "concurrent/langoTurnThreads")
    ManagedThreadFactory threadFactory;

    private ThreadPoolExecutor pool;
    private HandOff line;

    @PostConstruct
    void start() {
        start(MAX_CONCURRENT_TURNS);
    }

    /**
     * A new thread only when none is idle. (A pool whose core size is its maximum starts a thread for every turn
     * until it has them all: 100 streaming sessions kept 512 threads, about 100 MB of touched stacks in RSS.)
     */
    void start(int most) {
        HandOff waiting = new HandOff();
        line = waiting;
        pool = new ThreadPoolExecutor(0, most, 60, TimeUnit.SECONDS, waiting, threadFactory, (turn, full) -> {
            if (full.isShutdown()) {
                throw new RejectedExecutionException("the turn threads have stopped");
            }
            waiting.put(turn); // all threads busy: the turn waits in line for the first one free
        });
    }

    /**
     * Hands a turn to an idle thread, or refuses it so that the pool starts one (up to its maximum, past which
     * the pool's rejection puts it in line). Past the maximum, the pool's last thread never ends while a turn waits.
     */
    private static final class HandOff extends LinkedTransferQueue<Runnable> {
        @Override
        public boolean offer(Runnable turn) {
            return tryTransfer(turn);
        }
    }

    /** Whether a thread waits for a turn (tests). */
    boolean idleThread() {
        return line.hasWaitingConsumer();
    }

    @Override
    public void execute(Runnable turn) {
        pool.execute(turn);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
