package ai.lango.adk.runner;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** The runner's beans for tests that build an agent without the container. */
public final class RunnerFixtures {

    private RunnerFixtures() {
    }

    /** Turn threads on plain daemon threads, started; {@link #stop} them after the test. */
    public static TurnThreads threads() {
        TurnThreads threads = new TurnThreads();
        threads.threadFactory = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable runnable) {
                Thread thread = new Thread(runnable, "turn");
                thread.setDaemon(true);
                return thread;
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                throw new UnsupportedOperationException();
            }
        };
        threads.start();
        return threads;
    }

    public static void stop(TurnThreads threads) {
        threads.stop();
    }

    /** Approvals for a service without a database: no request waits on any session, and none is stored. */
    public static ai.lango.approval.Approvals noApprovals() {
        return new ai.lango.approval.Approvals() {
            @Override
            public java.util.Map<ai.lango.approval.Approval, ai.lango.approval.Approval.Decision> supersede(String sessionScope) {
                return java.util.Map.of();
            }

            @Override
            public void attach(String id, String confirmationId) {
            }
        };
    }

    public static TurnMetrics metrics() {
        TurnMetrics metrics = new TurnMetrics();
        metrics.registry = new SimpleMeterRegistry();
        return metrics;
    }
}
