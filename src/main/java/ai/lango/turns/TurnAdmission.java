package ai.lango.turns;

import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether a caller's turn may start: not past a token or cost budget of its user, not beyond their
 * concurrent turns (lango.quota.*), and not in a new session beyond their session count. {@link Turns} asks
 * here before every turn and every answer that continues one, whichever edge it came from, and gives the
 * permit back when the turn ends.
 */
@ApplicationScoped
public class TurnAdmission {

    @Inject
    Quotas quotas;

    @Inject
    SessionStore sessions;

    @Inject
    ai.lango.usage.Budgets budgets;

    /** The permit of a turn let in, to close when it ends; a refusal is thrown as {@link TurnRefused} (429). */
    public Quotas.Permit admit(Identity caller, String userId, String sessionKey) {
        // A user past a token or cost budget gets no turn: the model is not called.
        Optional<ai.lango.usage.Budgets.Exceeded> reached = budgets.check(userId, caller.administersAs(userId));
        if (reached.isPresent()) {
            throw new TurnRefused(TOO_MANY_REQUESTS, "budget_exceeded", reached.get().message(),
                    Optional.of(reached.get().retryAfter(java.time.Instant.now())));
        }
        if (quotas.limits().sessionsPerUser() > 0 && !caller.admin() && isNew(userId, sessionKey)
                && !quotas.maySessionBeAdded(caller, sessions.countOf(userId))) {
            throw new TurnRefused(TOO_MANY_REQUESTS, "quota_exceeded", sessionsMessage());
        }
        return quotas.turn(caller).orElseThrow(() -> new TurnRefused(TOO_MANY_REQUESTS, "too_many_turns",
                "you run " + quotas.limits().concurrentTurns() + " turns at once already (lango.quota.concurrent-turns):"
                        + " wait for one to end", Optional.of(Duration.ofSeconds(1))));
    }

    private static final int TOO_MANY_REQUESTS = 429;

    private boolean isNew(String userId, String sessionKey) {
        try {
            return sessions.find(SessionRef.of(userId, sessionKey)).isEmpty();
        } catch (IllegalArgumentException invalid) {
            return false; // the turn refuses the id itself, with its own error
        }
    }

    public String sessionsMessage() {
        return "you have " + quotas.limits().sessionsPerUser() + " sessions, as many as you may"
                + " (lango.quota.sessions-per-user): delete one first";
    }
}
