package ai.lango.turns;

import ai.lango.adk.TurnEngine;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.session.TurnRecord;
import ai.lango.session.TurnRows;
import ai.lango.turn.Names;
import ai.lango.turn.TurnAbortedException;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns that survive a crash. A turn's row says what is left of it ({@link TurnRows}); when this server starts it
 * resumes every turn a crash left running, and on PostgreSQL — a cluster — it takes over the turns of a server whose
 * session leases ran out, looking when a lease could have run out (every half lease timeout), not at every turn.
 * A resumed turn goes on from its stored events ({@link TurnEngine#resume}); its user's open sockets hear it
 * ({@link #watch}), its A2A task works again, and what it cannot do (past its attempts or its time, its budget
 * spent, lango.agent.resume=false) it says in its session and ends failed — never silently.
 */
@ApplicationScoped
public class Resumes {

    private static final Logger LOG = MaskedLogs.of(Resumes.class);

    /** How long an ended turn's row is kept (what is left of it is nothing; its session has the rest). */
    static final Duration ENDED_KEPT = Duration.ofDays(30);

    @Inject
    TurnEngine engine;

    @Inject
    TurnRows rows;

    @Inject
    ai.lango.session.SessionLeases sessionLeases;

    /** Whether the leases an earlier run of this server held were given back (once, before the first look). */
    private volatile boolean earlierLeasesReleased;

    @Inject
    LangoSettings settings;

    @Inject
    ai.lango.usage.Budgets budgets;

    @Inject
    ai.lango.usage.UsageLedger ledger;

    @Inject
    A2aTasks tasks;

    @Inject
    Turns turns;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /** Who hears a user's resumed turns: the /ws sockets of that user on this server. */
    private final Map<String, Set<Watcher>> watchers = new ConcurrentHashMap<>();
    /** The resumed turns running here now, by id: a socket that opens meanwhile is told of them. */
    private final Map<String, TurnContext> resumedRunning = new ConcurrentHashMap<>();
    private ScheduledFuture<?> sweep;

    /**
     * Who hears the turns of a user that the server resumed after a crash, which no request of theirs waits for: a
     * /ws socket of that user.
     */
    public interface Watcher {
        /** An event of the resumed turn of session {@code sessionKey} (first {@link TurnEvent.Resumed}). */
        void heard(String sessionKey, TurnEvent event);

        /** The resumed turn ended (or waits for a person: then it asked, and an answer goes on as any other). */
        void ended(String sessionKey, Optional<String> failure);

        /** A turn the server started itself in session {@code sessionKey} (a schedule's fire) with {@code message}. */
        default void scheduled(String sessionKey, String message, String scheduleId) {
        }
    }

    /** {@code watcher} hears the resumed turns of {@code userId} from now on (those running are told first); close to stop. */
    public AutoCloseable watch(String userId, Watcher watcher) {
        watchers.computeIfAbsent(userId, k -> ConcurrentHashMap.newKeySet()).add(watcher);
        resumedRunning.values().stream().filter(turn -> turn.userId().equals(userId))
                .forEach(turn -> watcher.heard(turn.sessionKey(), new TurnEvent.Resumed(Names.SINGLE_AGENT, TurnEngine.RESUMED_NOTE)));
        return () -> watchers.computeIfPresent(userId, (k, set) -> {
            set.remove(watcher);
            return set.isEmpty() ? null : set;
        });
    }

    void start(@Observes @Priority(300) @Initialized(ApplicationScoped.class) Object event) {
        if (scheduler == null) {
            return;
        }
        scheduler.execute(this::resumeOrphans);
        if (leases()) {
            long every = Math.max(1000, settings.sessions().leaseTimeout().toMillis() / 2);
            sweep = scheduler.scheduleWithFixedDelay(this::resumeOrphans, every, every, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    private boolean leases() {
        return settings.database().kind() == LangoSettings.DbKind.POSTGRESQL;
    }

    /** Resumes (or ends, saying why) every turn left running by a server that is gone; each taken by one server only. */
    void resumeOrphans() {
        try {
            if (engine.state() != TurnEngine.State.READY) {
                return; // no model (the turns wait for a server that has one), or stopping
            }
            if (!earlierLeasesReleased) {
                sessionLeases.releaseEarlier();
                earlierLeasesReleased = true;
            }
            for (TurnRecord orphan : rows.orphans(leases(), Instant.now(), settings.sessions().leaseTimeout())) {
                if (rows.claim(orphan)) {
                    resume(orphan);
                }
            }
            rows.purgeEnded(Instant.now().minus(ENDED_KEPT));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the turns left running by a stopped server could not be resumed", e);
        }
    }

    /** One turn this server took over: resumed from its events, or ended saying why it is not. */
    void resume(TurnRecord cut) {
        TurnContext turn = TurnContext.of(cut.userId(), cut.sessionKey(), cut.admin()).id(cut.id())
                .edge(cut.edge(), cut.reference()).credential(credential(cut.credential())).streaming(cut.streaming())
                .begins(TurnContext.Begins.RESUMED).meter(ledger.forTurn(cut.userId(), cut.admin())).build();
        Optional<A2aTasks.Adopted> task = tasks.adopt(cut);
        Consumer<TurnEvent> listener = event -> tell(turn, event);
        if (task.isPresent()) {
            listener = listener.andThen(task.get().events());
        }
        Optional<String> refused = refusal(cut);
        if (refused.isPresent()) {
            String why = "Lango stopped before this turn finished and did not resume it: " + refused.get()
                    + "; send your message again.";
            LOG.info(() -> "turn " + cut.id() + " of session " + cut.sessionScope() + " is not resumed: " + refused.get());
            engine.failResumed(turn, why);
            ended(turn, Optional.of(why));
            task.ifPresent(t -> t.ends().accept(CompletableFuture.failedFuture(new TurnFailedException(why, null))));
            return;
        }
        LOG.info(() -> "resuming turn " + cut.id() + " of session " + cut.sessionScope() + " (attempt " + (cut.attempts() + 1)
                + ")");
        resumedRunning.put(turn.id(), turn);
        TurnEngine.Resumed resumed;
        try {
            resumed = engine.resume(turn, listener);
        } catch (RuntimeException e) {
            resumedRunning.remove(turn.id());
            LOG.log(Level.WARNING, "turn " + cut.id() + " could not be resumed", e);
            String why = "Lango stopped before this turn finished and could not resume it: " + e.getMessage();
            engine.failResumed(turn, why);
            ended(turn, Optional.of(why));
            task.ifPresent(t -> t.ends().accept(CompletableFuture.failedFuture(new TurnFailedException(why, e))));
            return;
        }
        CompletableFuture<String> outcome;
        if (resumed instanceof TurnEngine.Resumed.Running running) {
            outcome = running.turn();
        } else if (resumed instanceof TurnEngine.Resumed.Waiting waiting) {
            waiting.asked().forEach(asked -> turns.hearing(asked.approvalId(), () -> Turns.Listener.of(event -> tell(turn, event))));
            outcome = CompletableFuture.completedFuture("");
        } else {
            TurnEngine.Resumed.Over over = (TurnEngine.Resumed.Over) resumed;
            outcome = over.failed() ? CompletableFuture.failedFuture(new TurnFailedException("the turn had ended with an error",
                    null)) : CompletableFuture.completedFuture(over.answer());
        }
        outcome.whenComplete((answer, failure) -> {
            resumedRunning.remove(turn.id());
            Optional<String> why = Optional.ofNullable(failure).map(f -> f.getCause() != null
                    && f instanceof java.util.concurrent.CompletionException ? f.getCause() : f).map(Throwable::getMessage);
            LOG.info(() -> "resumed turn " + turn.id() + ": " + resumed.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
                    + why.map(w -> ", failed: " + w).orElse(""));
            if (failure != null && resumed instanceof TurnEngine.Resumed.Running && !storedAlready(failure)) {
                engine.failResumed(turn, "The resumed turn failed: " + why.orElse("unknown"));
            }
            if (!(resumed instanceof TurnEngine.Resumed.Over)) {
                ended(turn, why);
            }
        });
        task.ifPresent(t -> t.ends().accept(outcome));
    }

    /** Why the cut turn is not resumed, if it is not. */
    private Optional<String> refusal(TurnRecord cut) {
        if (!settings.agent().resume()) {
            return Optional.of("this server does not resume turns (" + Keys.RESUME + "=false)");
        }
        if (cut.attempts() + 1 > settings.agent().resumeAttempts()) {
            return Optional.of("it was resumed " + cut.attempts() + " times already (" + Keys.RESUME_ATTEMPTS + ")");
        }
        Duration timeout = settings.agent().requestTimeout();
        if (cut.runStartedAt().plus(timeout).isBefore(Instant.now())) {
            return Optional.of("it started longer ago than its time allows (" + timeout.toSeconds() + " s, "
                    + Keys.REQUEST_TIMEOUT + ")");
        }
        if ("eval".equals(cut.edge())) {
            return Optional.of("an evaluation's turn is not resumed: run the evaluation again");
        }
        return budgets.check(cut.userId(), cut.admin()).map(ai.lango.usage.Budgets.Exceeded::message);
    }

    /**
     * A failure the turn stored itself (its timeout, its user stopping it), or none to store (a new message superseded
     * it): nothing more to store.
     */
    private static boolean storedAlready(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException || t instanceof TurnAbortedException
                    || t instanceof ai.lango.turn.TurnSupersededException) {
                return true;
            }
        }
        return false;
    }

    private static TurnContext.Credential credential(String stored) {
        try {
            return TurnContext.Credential.valueOf(stored);
        } catch (IllegalArgumentException unknown) {
            return TurnContext.Credential.SERVER;
        }
    }

    /**
     * The user's sockets here hear a turn the server started itself (a schedule's fire) as they hear a resumed one: that
     * it started, with its message, then its events ({@link #heard}) and its end ({@link #endedFor}).
     */
    void scheduled(String userId, String sessionKey, String message, String scheduleId) {
        for (Watcher watcher : List.copyOf(watchers.getOrDefault(userId, Set.of()))) {
            try {
                watcher.scheduled(sessionKey, message, scheduleId);
            } catch (RuntimeException e) {
                LOG.fine(() -> "a watcher of scheduled turns failed: " + e.getMessage());
            }
        }
    }

    /** An event of a turn of {@code userId}'s that no request waits for, to their sockets here. */
    void heard(String userId, String sessionKey, TurnEvent event) {
        tell(TurnContext.of(userId, sessionKey, false).build(), event);
    }

    /** Such a turn ended (or waits for a person). */
    void endedFor(String userId, String sessionKey, Optional<String> failure) {
        ended(TurnContext.of(userId, sessionKey, false).build(), failure);
    }

    private void tell(TurnContext turn, TurnEvent event) {
        for (Watcher watcher : watchers.getOrDefault(turn.userId(), Set.of())) {
            try {
                watcher.heard(turn.sessionKey(), event);
            } catch (RuntimeException e) {
                LOG.fine(() -> "a watcher of resumed turns failed: " + e.getMessage());
            }
        }
    }

    private void ended(TurnContext turn, Optional<String> failure) {
        for (Watcher watcher : List.copyOf(watchers.getOrDefault(turn.userId(), Set.of()))) {
            try {
                watcher.ended(turn.sessionKey(), failure);
            } catch (RuntimeException e) {
                LOG.fine(() -> "a watcher of resumed turns failed: " + e.getMessage());
            }
        }
    }
}
