package ai.lango.turns;

import ai.lango.adk.TurnEngine;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.schedule.Due;
import ai.lango.schedule.Schedule;
import ai.lango.schedule.ScheduleRows;
import ai.lango.security.Identity;
import ai.lango.session.TurnRows;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnEvent;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The fires of schedules, each a turn of the schedule's owner. Every server looks each {@link #POLL} for due fires and
 * claims one with a conditional update that moves the schedule on ({@link ScheduleRows#claim}): one server wins each
 * fire. The winner starts the turn through {@link Turns} as the owner (the server's credential, edge "schedule"), so the
 * owner's budget (over it: the fire is skipped and recorded, not queued), approvals and crash resume apply as to every
 * turn; a turn still under way in the session skips the fire. The claim stays, renewed every poll, until the fire's turn
 * is durable (its lango_turns row, found by the fire's reference) or the fire was skipped; a claim whose server stopped
 * renewing it for {@link #CLAIM_TIMEOUT} is taken over by another server, which runs the fire unless its turn is durable
 * already (then that turn is resumed as any other). A fire due longer than lango.schedules.missed-grace ago is skipped;
 * fires missed meanwhile are one fire (docs/scale-out.md).
 */
@ApplicationScoped
public class ScheduledTurns {

    private static final Logger LOG = MaskedLogs.of(ScheduledTurns.class);

    /** How often each server looks for due fires: a fire starts within this of its time. */
    static final Duration POLL = Duration.ofSeconds(1);
    /** How long a claim lasts without its server renewing it before another server takes the fire over. */
    static final Duration CLAIM_TIMEOUT = Duration.ofSeconds(10);
    /** The edge of scheduled turns (lango_turns.edge). */
    public static final String EDGE = "schedule";
    /** The most due fires one poll takes. */
    private static final int BATCH = 50;
    private static final int RESULT_PREVIEW = 300;

    @Inject
    ScheduleRows rows;

    @Inject
    TurnRows turnRows;

    @Inject
    Turns turns;

    @Inject
    TurnEngine engine;

    @Inject
    Resumes resumes;

    @Inject
    LangoSettings.Schedules settings;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /** The fires this server claimed and has not seen durable or settled, by their reference. */
    private final Map<String, Claimed> claimed = new ConcurrentHashMap<>();
    /** The schedules whose fire's turn runs on this server now. */
    private final Map<String, CompletableFuture<String>> running = new ConcurrentHashMap<>();
    private ScheduledFuture<?> poll;

    private record Claimed(Schedule schedule, Instant fire) {
    }

    void start(@Observes @Priority(400) @Initialized(ApplicationScoped.class) Object event) {
        if (scheduler == null || !settings.enabled()) {
            return;
        }
        poll = scheduler.scheduleWithFixedDelay(this::poll, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (poll != null) {
            poll.cancel(false);
        }
    }

    /** One look: this server's claims renewed or settled, then every due fire (or stale claim) tried. */
    void poll() {
        try {
            if (engine.state() != TurnEngine.State.READY) {
                return; // no model, or stopping: a server that can run the turn takes the fire
            }
            Instant now = Instant.now();
            renewClaims(now);
            for (Schedule due : rows.due(now, now.minus(CLAIM_TIMEOUT), BATCH)) {
                try {
                    if (due.claim().isPresent() && due.claim().get().at().isBefore(now.minus(CLAIM_TIMEOUT))
                            && !claimed.containsKey(Schedule.reference(due.id(), due.claim().get().fire()))) {
                        takeOver(due, due.claim().get(), now);
                    } else if (!due.paused() && due.nextFire().filter(next -> !next.isAfter(now)).isPresent()) {
                        fire(due, due.nextFire().get(), now);
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "schedule " + due.id() + " could not fire", e);
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "looking for due schedules failed", e);
        }
    }

    /** Each claim of this server: settled once its turn is durable, else renewed (the turn waits for its session). */
    private void renewClaims(Instant now) {
        for (Map.Entry<String, Claimed> entry : claimed.entrySet()) {
            Claimed claim = entry.getValue();
            if (turnRows.byReference(entry.getKey()).isPresent()) {
                rows.settle(claim.schedule().id(), claim.fire(), Optional.empty());
                claimed.remove(entry.getKey());
            } else if (!rows.renew(claim.schedule().id(), claim.fire(), turnRows.server(), now)) {
                claimed.remove(entry.getKey()); // settled meanwhile (skipped), or the schedule was deleted
            }
        }
    }

    /** A fire that came due: skipped when missed beyond the grace, else claimed and (when this server won) run. */
    private void fire(Schedule schedule, Instant dueAt, Instant now) {
        Due due = Due.of(schedule.timing(), dueAt, now, settings.missedGrace());
        if (due.missed()) {
            if (rows.skipMissed(schedule.id(), dueAt, due.following(), "skipped: missed (due " + dueAt + ", more than "
                    + settings.missedGrace() + " ago, lango.schedules.missed-grace)")) {
                LOG.info(() -> "schedule " + schedule.id() + ": the fire due " + dueAt + " was missed; next " + due.following());
            }
            return;
        }
        if (rows.claim(schedule.id(), dueAt, due.following(), turnRows.server(), now)) {
            run(schedule, dueAt);
        }
    }

    /** A claim whose server went silent: its turn is durable (resumed as any other), or this server runs the fire. */
    private void takeOver(Schedule schedule, Schedule.Claim claim, Instant now) {
        String reference = Schedule.reference(schedule.id(), claim.fire());
        if (turnRows.byReference(reference).isPresent()) {
            rows.settle(schedule.id(), claim.fire(), Optional.empty());
            return;
        }
        if (!rows.takeOver(schedule.id(), claim.fire(), claim.at(), turnRows.server(), now)) {
            return;
        }
        LOG.info(() -> "schedule " + schedule.id() + ": taking over the fire due " + claim.fire() + " from " + claim.server());
        if (claim.fire().isBefore(now.minus(settings.missedGrace()))) {
            rows.settle(schedule.id(), claim.fire(), Optional.of("skipped: missed (due " + claim.fire() + ", more than "
                    + settings.missedGrace() + " ago, lango.schedules.missed-grace)"));
            return;
        }
        run(schedule, claim.fire());
    }

    /** Runs the claimed fire: the owner's turn, or the reason it is skipped, recorded. */
    private void run(Schedule schedule, Instant fire) {
        String reference = Schedule.reference(schedule.id(), fire);
        CompletableFuture<String> earlier = running.get(schedule.id());
        if ((earlier != null && !earlier.isDone()) || turnRows.activeIn(SessionRef.of(schedule.userId(), schedule.sessionKey()).scope())) {
            rows.settle(schedule.id(), fire, Optional.of("skipped: a turn was still under way in session " + schedule.sessionKey()
                    + " (due " + fire + ")"));
            return;
        }
        String message = "[Scheduled " + fire + "] " + schedule.message();
        String userId = schedule.userId();
        String sessionKey = schedule.sessionKey();
        claimed.put(reference, new Claimed(schedule, fire));
        java.util.concurrent.atomic.AtomicBoolean asked = new java.util.concurrent.atomic.AtomicBoolean();
        Turns.Listener listener = Turns.Listener.of(event -> {
            if (event instanceof TurnEvent.ApprovalRequest) {
                asked.set(true);
            }
            heard(userId, sessionKey, event);
        }).from(EDGE, reference)
                .onceAdmitted(() -> resumes.scheduled(userId, sessionKey, message, schedule.id()));
        CompletableFuture<String> turn;
        try {
            turn = turns.start(owner(userId), userId, sessionKey, message, true, listener);
        } catch (TurnRefused refused) {
            claimed.remove(reference);
            rows.settle(schedule.id(), fire, Optional.of("skipped: " + refused.getMessage() + " (due " + fire + ")"));
            LOG.info(() -> "schedule " + schedule.id() + ": the fire due " + fire + " was skipped: " + refused.code());
            return;
        } catch (RuntimeException e) {
            claimed.remove(reference);
            rows.settle(schedule.id(), fire, Optional.of("failed: the turn could not start: " + e.getMessage()));
            LOG.log(Level.WARNING, "schedule " + schedule.id() + ": the fire due " + fire + " could not start", e);
            return;
        }
        running.put(schedule.id(), turn);
        LOG.info(() -> "schedule " + schedule.id() + ": the fire due " + fire + " started a turn in " + sessionKey);
        turn.whenComplete((answer, failure) -> {
            running.remove(schedule.id(), turn);
            Optional<String> why = Optional.ofNullable(failure)
                    .map(f -> f instanceof CompletionException && f.getCause() != null ? f.getCause() : f).map(Throwable::getMessage);
            resumes.endedFor(userId, sessionKey, why);
            String result = why.map(w -> "failed: " + w).orElseGet(() -> asked.get()
                    ? "waiting: the turn asked for approval" : "answered: " + preview(answer == null ? "" : answer));
            try {
                if (claimed.remove(reference) != null) {
                    rows.settle(schedule.id(), fire, Optional.of(result));
                } else {
                    rows.result(schedule.id(), fire, result);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the result of schedule " + schedule.id() + "'s fire could not be recorded", e);
            }
        });
    }

    /** The turn's events to its user's sockets here; a request for approval is answered there, and the turn goes on. */
    private void heard(String userId, String sessionKey, TurnEvent event) {
        if (event instanceof TurnEvent.ApprovalRequest request) {
            turns.hearing(request.approvalId(), () -> Turns.Listener.of(e -> heard(userId, sessionKey, e)));
        }
        resumes.heard(userId, sessionKey, event);
    }

    /**
     * Who a schedule's turn runs as: its owner, with the server's credential; administering only in the operator's own
     * sessions, as a turn the server continues after a timeout does.
     */
    static Identity owner(String userId) {
        boolean operator = Identity.reserved(userId);
        return new Identity(userId, operator, operator, TurnContext.Credential.SERVER);
    }

    private static String preview(String answer) {
        String flat = answer.strip().replaceAll("\\s+", " ");
        return flat.length() <= RESULT_PREVIEW ? flat : flat.substring(0, RESULT_PREVIEW - 1) + "…";
    }
}
