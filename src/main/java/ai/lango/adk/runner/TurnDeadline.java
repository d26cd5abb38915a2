package ai.lango.adk.runner;

import ai.lango.turn.TurnAbort;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The end of one run at its deadline (or when its user stops it): the run is cancelled and what it waits on ended through its
 * {@link TurnAbort} (the model's HTTP stream closed, a running tool cancelled: exec's process group
 * is killed), so the turn ends at its timeout, with its session's lock and lease released, instead of
 * living on until the model finishes. The run's thread itself is never interrupted (an interrupt
 * closes the embedded database's files when it lands in their I/O).
 */
final class TurnDeadline implements AutoCloseable {

    /** One daemon thread for every deadline of the server: they only cancel and interrupt. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "lango-turn-deadlines");
        thread.setDaemon(true);
        return thread;
    });

    private enum State { RUNNING, EXPIRED, STOPPED, ENDED }

    private final TurnAbort abort;
    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    /** Signals once, at the deadline: the run is cut there (takeUntil), its downstream completed. */
    private final CompletableSubject reached = CompletableSubject.create();
    private final ScheduledFuture<?> timer;

    /** Starts counting; at the deadline (or a stop) {@code abort}, the turn's, ends what the run waits on. */
    TurnDeadline(TurnAbort abort, Duration left) {
        this.abort = abort;
        timer = TIMER.schedule(this::expire, Math.max(0, left.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Emits at the deadline: {@code run.takeUntil(deadline.reached())} ends there. */
    Flowable<Object> reached() {
        return reached.toFlowable();
    }

    private void expire() {
        end(State.EXPIRED);
    }

    /** Its user stops the run now, the same way its deadline would. */
    void stop() {
        end(State.STOPPED);
    }

    private void end(State why) {
        if (!state.compareAndSet(State.RUNNING, why)) {
            return;
        }
        abort.abort(); // what blocks the run's thread (a synchronous model stream, a tool) ends first
        reached.onComplete();
    }

    /** Whether the deadline ended the run. */
    boolean expired() {
        return state.get() == State.EXPIRED;
    }

    /** Whether its user stopped the run. */
    boolean stopped() {
        return state.get() == State.STOPPED;
    }

    /** The run is over (on its own thread): the timer stops. */
    @Override
    public void close() {
        timer.cancel(false);
        state.compareAndSet(State.RUNNING, State.ENDED);
    }
}
