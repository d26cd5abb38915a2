package ai.lango.adk.runner;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
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

    @PostConstruct
    void start() {
        pool = new ThreadPoolExecutor(MAX_CONCURRENT_TURNS, MAX_CONCURRENT_TURNS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threadFactory);
        pool.allowCoreThreadTimeOut(true);
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
