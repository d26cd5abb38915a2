package ai.lango.turn;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Work a finished turn leaves for its session (memory, compaction), done off the turn's path on threads of their
 * own: it may fall behind under load, the users' turns may not. A session waits at most once: a second trigger
 * while it waits has nothing to add.
 */
public final class AfterTurnWork {

    private final Set<SessionRef> waiting = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor workers;

    /** {@code threads} threads of {@code factory} (the container's), let go when idle for a minute. */
    public AfterTurnWork(int threads, ThreadFactory factory) {
        workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        workers.allowCoreThreadTimeOut(true);
    }

    /** Runs {@code work} for {@code session} soon, unless it already waits for it. */
    public void submit(SessionRef session, Consumer<SessionRef> work) {
        if (waiting.add(session)) {
            workers.execute(() -> {
                waiting.remove(session);
                work.accept(session);
            });
        }
    }

    /** Stops the threads (the server stops): work still waiting is dropped. */
    public void stop() {
        workers.shutdownNow();
    }
}
