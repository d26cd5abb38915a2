package ai.lango.api;

import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether a caller's turn may start, by lango.quota.*: not beyond their concurrent turns, and not in
 * a new session beyond their session count. Every edge that runs turns (/api/run, /api/run_sse, /ws,
 * A2A) asks here first and gives the permit back when the turn ends.
 */
@ApplicationScoped
public class TurnAdmission {

    @Inject
    Quotas quotas;

    @Inject
    SessionStore sessions;

    @Inject
    ai.lango.usage.Budgets budgets;

    /** A turn let in (its permit, to close when it ends) or refused (why, and when to try again). */
    public record Admission(Quotas.Permit permit, Response.Status status, String code, String message,
                            Optional<Duration> retryAfter) {

        public boolean admitted() {
            return permit != null;
        }

        /** The refusal as a JSON error response, with Retry-After when there is one. */
        public Response response() {
            return ApiError.of(status, code, message, retryAfter);
        }
    }

    public Admission admit(Identity caller, String userId, String sessionKey) {
        // A user past a token or cost budget gets no turn: the model is not called.
        Optional<ai.lango.usage.Budgets.Exceeded> reached = budgets.check(userId, caller.administersAs(userId));
        if (reached.isPresent()) {
            return new Admission(null, Response.Status.TOO_MANY_REQUESTS, "budget_exceeded", reached.get().message(),
                    Optional.of(reached.get().retryAfter(java.time.Instant.now())));
        }
        if (quotas.limits().sessionsPerUser() > 0 && !caller.admin() && isNew(userId, sessionKey)
                && !quotas.maySessionBeAdded(caller, sessions.countOf(userId))) {
            return refusedSessions();
        }
        return quotas.turn(caller).map(permit -> new Admission(permit, Response.Status.OK, "", "", Optional.empty()))
                .orElseGet(() -> new Admission(null, Response.Status.TOO_MANY_REQUESTS, "too_many_turns",
                        "you run " + quotas.limits().concurrentTurns() + " turns at once already (lango.quota.concurrent-turns):"
                                + " wait for one to end", Optional.of(Duration.ofSeconds(1))));
    }

    private boolean isNew(String userId, String sessionKey) {
        try {
            return sessions.find(SessionRef.of(userId, sessionKey)).isEmpty();
        } catch (IllegalArgumentException invalid) {
            return false; // the turn refuses the id itself, with its own error
        }
    }

    private Admission refusedSessions() {
        return new Admission(null, Response.Status.TOO_MANY_REQUESTS, "quota_exceeded", sessionsMessage(), Optional.empty());
    }

    public String sessionsMessage() {
        return "you have " + quotas.limits().sessionsPerUser() + " sessions, as many as you may"
                + " (lango.quota.sessions-per-user): delete one first";
    }
}
