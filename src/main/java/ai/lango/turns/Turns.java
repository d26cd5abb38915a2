package ai.lango.turns;

import ai.lango.adk.Agents;
import ai.lango.adk.TurnEngine;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.masking.MaskedLogs;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a turn is, for every edge that starts, answers, stops or continues one (/ws, ADK's API, A2A, /mcp, eval):
 * the use cases, written once. An edge translates its wire format into these calls and back, and decides nothing
 * a turn does. Each turn gets its {@link TurnContext} here — who runs it (from the credential of the request that
 * started it, or answered it), its session, what its model calls owe — and the engine hands that value down.
 *
 * <ul>
 * <li><b>Start</b>: the caller's budgets and quotas let it in (or {@link TurnRefused}); requests for approval still
 * waiting in the session are superseded and the model told so; the turn runs, its permit given back at its end.
 * <li><b>Answer</b>: a request for approval is answered by its own user; the turn it continues is let in before
 * anything is decided (a refused answer leaves the request waiting); then approve or deny, and the turn goes on.
 * <li><b>Expire</b>: one sweep, for every edge: a request nobody answered in time is decided so, and its turn goes
 * on with the model told the call did not run.
 * <li><b>Stop</b>: a running turn ends where it waits, its work so far stored.
 * </ul>
 */
@ApplicationScoped
public class Turns {

    private static final Logger LOG = MaskedLogs.of(Turns.class);
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    /** The edge of turns the server starts itself (an approval's timeout). */
    static final String SERVER_EDGE = "server";

    @Inject
    TurnEngine engine;

    @Inject
    Agents agents;

    @Inject
    TurnAdmission admissions;

    @Inject
    Approvals approvals;

    @Inject
    Credentials credentials;

    @Inject
    ai.lango.usage.UsageLedger ledger;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /**
     * Who hears the continuation of a turn whose request for approval an edge asked, when no answering request
     * carries it (a timeout, or an answer that came another way): by the request's id, until it is continued.
     */
    private final Map<String, Continuation> continuations = new ConcurrentHashMap<>();
    private ScheduledFuture<?> sweep;

    @PostConstruct
    void start() {
        if (scheduler != null) {
            sweep = scheduler.scheduleWithFixedDelay(this::expireDue, 1, 1, TimeUnit.SECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    /**
     * How the events of a turn reach its edge: Lango's events, or ADK's own JSON (the ADK-compatible API); and what
     * the edge says once the turn is let in, before anything of it happens ({@code admitted}).
     */
    public record Listener(Consumer<TurnEvent> events, Consumer<String> adkEvents, Runnable admitted, String edge,
                           String reference) {
        public static Listener of(Consumer<TurnEvent> events) {
            return new Listener(events, null, () -> { }, SERVER_EDGE, null);
        }

        public static Listener adk(Consumer<String> adkEvents) {
            return new Listener(null, adkEvents, () -> { }, SERVER_EDGE, null);
        }

        /** The same listener, {@code admitted} run once the turn is let in. */
        public Listener onceAdmitted(Runnable admitted) {
            return new Listener(events, adkEvents, admitted, edge, reference);
        }

        /**
         * The same listener, for turns of {@code edge} (ws, adk, a2a, mcp, eval) that it knows by {@code reference} (an
         * A2A task's id; null: by its session alone): what a turn resumed after a crash goes back to.
         */
        public Listener from(String edge, String reference) {
            return new Listener(events, adkEvents, admitted, edge, reference);
        }

        static final Listener NONE = of(event -> { });
    }

    /** Who hears a turn that goes on after a request for approval: its events, and the turn itself once it goes on. */
    public interface Continuation {
        /**
         * Once the turn is let in and before anything is decided, whether the answer may decide (an A2A task claims
         * its question, so that of two answers one counts); false: nothing is decided ({@link TurnRefused} 409).
         */
        default boolean claim() {
            return true;
        }

        Listener listener();

        /** The turn went on; its future completes with the answer (or the failure meant for the user). */
        default void continued(CompletableFuture<String> turn) {
        }

        /** Nobody in particular: the turn goes on and is stored. */
        Continuation NONE = () -> Listener.NONE;
    }

    /**
     * Starts a turn of {@code userId}'s session {@code sessionKey} with {@code message}, for {@code caller}; the
     * future completes with the answer's text or fails with a {@link TurnFailedException} meant for the user.
     * Throws {@link TurnRefused} when the caller's budgets or quotas do not let it in.
     */
    public CompletableFuture<String> start(Identity caller, String userId, String sessionKey, String message, boolean streaming,
                                           Listener listener) {
        return start(caller, userId, sessionKey, message, streaming, false, listener);
    }

    /**
     * The same; with {@code retry}, {@code message} is asked again in place of the session's last question and what
     * answered it, which stay stored, superseded, and out of what the model reads ({@link TurnContext#retry}).
     */
    public CompletableFuture<String> start(Identity caller, String userId, String sessionKey, String message, boolean streaming,
                                           boolean retry, Listener listener) {
        Quotas.Permit permit = admissions.admit(caller, userId, sessionKey);
        try {
            listener.admitted().run();
            String said = superseding(SessionRef.of(userId, sessionKey)) + message;
            TurnContext turn = context(caller, userId, sessionKey).toBuilder().edge(listener.edge(), listener.reference())
                    .retry(retry ? message : null).build();
            return run(turn, said, Optional.empty(), streaming, listener)
                    .whenComplete((answer, failure) -> permit.close());
        } catch (RuntimeException e) {
            permit.close();
            throw e;
        }
    }

    /**
     * Answers the request for approval {@code approvalId} as {@code caller}: approved or denied, and the turn that
     * asked goes on — its events to {@code listener}, or (when none is given) to whoever the asking edge named.
     * Throws {@link TurnRefused} when the request is not the caller's to answer (404), is no longer waiting (409), or
     * the turn it continues is not let in (429; the request then stays waiting).
     */
    public CompletableFuture<String> answer(Identity caller, String approvalId, boolean approved, boolean streaming,
                                            Optional<Continuation> answering) {
        Approval asked = approvals.get(approvalId)
                .filter(a -> caller.answersFor(a.userId(), credentials.required()))
                .orElseThrow(() -> new TurnRefused(NOT_FOUND, "approval_not_found", "there is no request for approval "
                        + approvalId + " of yours"));
        if (asked.decision() != Approval.Decision.PENDING) {
            throw notPending(asked);
        }
        Quotas.Permit permit = admissions.admit(caller, asked.userId(), asked.sessionKey());
        try {
            Continuation hearing = answering.orElseGet(() -> Optional.ofNullable(continuations.get(approvalId))
                    .orElse(Continuation.NONE));
            if (!hearing.claim()) {
                throw new TurnRefused(CONFLICT, "approval_not_pending", "the request for approval " + approvalId
                        + " was answered another way already");
            }
            Optional<Approvals.Outcome> outcome = approvals.decide(approvalId, asked.userId(), approved, Approval.By.USER);
            if (outcome.isEmpty() || !outcome.get().decidedNow()) {
                throw notPending(approvals.get(approvalId).orElse(asked));
            }
            continuations.remove(approvalId);
            CompletableFuture<String> turn = resume(context(caller, asked.userId(), asked.sessionKey()),
                    approvals.get(approvalId).orElse(asked), streaming, hearing.listener());
            turn.whenComplete((answer, failure) -> permit.close());
            hearing.continued(turn);
            return turn;
        } catch (RuntimeException e) {
            permit.close();
            throw e;
        }
    }

    private static TurnRefused notPending(Approval approval) {
        return new TurnRefused(CONFLICT, "approval_not_pending", "the request for approval " + approval.id() + " was "
                + approval.decision().wire() + " already");
    }

    /**
     * {@code listener} hears the turn that continues after the request {@code approvalId} when no answering request
     * carries it (a timeout, an answer from another edge): the asking edge names who (the socket that asked, the task
     * that waits). Forgotten once the turn continues.
     */
    public void hearing(String approvalId, Continuation continuation) {
        continuations.put(approvalId, continuation);
    }

    /** A request that will not be continued (superseded by a new message) is forgotten. */
    void resolved(@jakarta.enterprise.event.Observes ai.lango.approval.ApprovalResolved resolved) {
        if (resolved.by() == Approval.By.SUPERSEDED) {
            continuations.remove(resolved.approval().id());
        }
    }

    /**
     * One sweep for every edge: each request that nobody answered in time is decided so (by the timeout), and the
     * turn that asked goes on — the model told the call did not run — for the user it belongs to.
     */
    void expireDue() {
        try {
            for (Approval expired : approvals.expireDue()) {
                Continuation registered = continuations.remove(expired.id());
                Continuation hearing = registered == null ? Continuation.NONE : registered;
                // Nobody answered: the turn that goes on administers only in the operator's own sessions.
                boolean admin = Identity.reserved(expired.userId());
                TurnContext turn = TurnContext.of(expired.userId(), expired.sessionKey(), admin)
                        .credential(TurnContext.Credential.SERVER).meter(ledger.forTurn(expired.userId(), admin)).build();
                CompletableFuture<String> continued = resume(turn, expired, true, hearing.listener());
                continued.whenComplete((answer, failure) -> {
                    if (failure != null) {
                        LOG.fine(() -> "the turn of expired request " + expired.id() + " ended: " + failure.getMessage());
                    }
                });
                hearing.continued(continued);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "requests for approval that ran out could not be ended", e);
        }
    }

    /** Stops the turn of a user's session running on this server; whether one was running. */
    public boolean stop(String userId, String sessionKey) {
        return engine.stop(userId, sessionKey);
    }

    /** Deletes a user's session (its turn, if one runs here, stopped first); whether it existed. */
    public boolean deleteSession(String userId, String sessionKey) {
        return engine.deleteSession(userId, sessionKey);
    }

    /** Renames a user's session; false when it does not exist. */
    public boolean renameSession(String userId, String sessionKey, String title) {
        return engine.renameSession(userId, sessionKey, title);
    }

    /** Waits for a turn's answer on the caller's thread; fails with a {@link TurnFailedException} meant for the user. */
    public String await(CompletableFuture<String> turn) {
        return engine.await(turn);
    }

    /** Why turns cannot run, when no model is configured. */
    public Optional<String> unavailable() {
        return agents.unavailable();
    }

    /** The agent tree, when a model is configured. */
    public Optional<AgentInfo> agents() {
        return agents.agents();
    }

    /** Which prompts the agent runs with (a hash of every section as loaded at start). */
    public String promptsFingerprint() {
        return agents.promptsFingerprint();
    }

    /** The version of ADK for Java this server runs, as ADK's API server reports it. */
    public String adkVersion() {
        return agents.adkVersion();
    }

    /** Where the server is in its life: what readiness reports. */
    public enum State { STARTING, READY, STOPPING }

    public State state() {
        return State.valueOf(engine.state().name());
    }

    /** Turns running now on this server. */
    public int turnsInFlight() {
        return engine.turnsInFlight();
    }

    /** The turn a caller runs as {@code userId}: whose it is, whether it administers, with which credential. */
    private TurnContext context(Identity caller, String userId, String sessionKey) {
        boolean admin = caller.administersAs(userId);
        return TurnContext.of(userId, sessionKey, admin)
                .credential(credentials.required() ? caller.credential() : TurnContext.Credential.NONE)
                .meter(ledger.forTurn(userId, admin)).build();
    }

    private CompletableFuture<String> resume(TurnContext turn, Approval approval, boolean streaming, Listener listener) {
        Optional<String> confirmation = approval.confirmationId();
        if (confirmation.isEmpty()) {
            return CompletableFuture.failedFuture(new TurnFailedException("the turn that asked for approval " + approval.id()
                    + " cannot be resumed (the server stopped before it was recorded)", null));
        }
        return run(turn, "", Optional.of(new TurnRequest.ApprovalAnswer(confirmation.get(),
                approval.decision() == Approval.Decision.APPROVED)), streaming, listener);
    }

    private CompletableFuture<String> run(TurnContext turn, String message, Optional<TurnRequest.ApprovalAnswer> answer,
                                          boolean streaming, Listener listener) {
        return listener.adkEvents() != null ? engine.runAdk(turn, message, answer, streaming, listener.adkEvents())
                : engine.run(turn, message, answer, streaming, listener.events());
    }

    /**
     * The note a new message on a session where calls wait for approval starts with: they are superseded (they will
     * not run), and the model is told so before the user's words.
     */
    private String superseding(SessionRef session) {
        Map<Approval, Approval.Decision> ended = approvals.supersede(session.scope());
        if (ended.isEmpty()) {
            return "";
        }
        StringBuilder note = new StringBuilder();
        ended.forEach((a, decision) -> note.append("[System: the call of ").append(a.tool()).append(" that waited for approval ")
                .append(a.id()).append(decision == Approval.Decision.EXPIRED ? " expired unanswered" : " was superseded by this message")
                .append(a.rerun() ? "; it did not run again (the server had stopped while it ran before: it may or may not have"
                        + " taken effect).]\n" : "; it did not run.]\n"));
        return note.toString();
    }
}
