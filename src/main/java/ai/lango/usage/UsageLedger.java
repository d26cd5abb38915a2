package ai.lango.usage;

import ai.lango.turn.ModelCall;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.logging.Logger;

/**
 * Where model calls are counted: each call's usage priced ({@link Pricing}), counted at /metrics per provider,
 * model and purpose (never per user: bounded labels), added to its user's spend, and written — the agent's with
 * the turn's next session write ({@link TurnUsage}), a background call's at once in a transaction of its own.
 */
@ApplicationScoped
public class UsageLedger {

    private static final Logger LOG = MaskedLogs.of(UsageLedger.class);

    @Inject
    LangoSettings settings;

    @Inject
    UsageRows rows;

    @Inject
    Budgets budgets;

    @Inject
    MeterRegistry registry;

    private Pricing pricing;

    @PostConstruct
    void prices() {
        pricing = new Pricing(settings.pricing());
    }

    public Pricing pricing() {
        return pricing;
    }

    /** One call's usage, priced. */
    public ModelCall call(String userId, String sessionKey, String agent, String provider, String model, String purpose,
                          long input, long output, long cached, boolean estimated) {
        return new ModelCall(userId, sessionKey, agent, provider, model, purpose, input, output, cached, estimated,
                pricing.cost(model, input, output, cached), Instant.now());
    }

    /** What the model calls of a turn of {@code userId} owe: their budgets checked, their usage kept for the turn's writes. */
    public ai.lango.turn.TurnMeter forTurn(String userId, boolean admin) {
        return new TurnUsage(userId, admin, this, budgets);
    }

    /** A background call (observer, reflector, graph extraction): counted and written now. */
    public void madeAside(ModelCall call) {
        counted(call);
        record(List.of(call));
    }

    /** Writes calls in a transaction of their own; a failure is logged, the turn or job goes on. */
    public void record(List<ModelCall> calls) {
        if (calls.isEmpty()) {
            return;
        }
        try {
            rows.record(calls);
        } catch (RuntimeException e) {
            LOG.warning(() -> "the usage of " + calls.size() + " model call(s) could not be stored: " + e.getMessage());
        }
    }

    /** Sessions whose latest reported call is kept at most; beyond, all are dropped (each is measured again). */
    static final int MAX_SESSIONS_KEPT = 10_000;

    /**
     * The latest agent call per session (user and session key) whose usage the provider reported: what compaction
     * reads the size of the session's next request from (ai.lango.adk.sessions.HistoryCompactor). In memory: after a
     * restart, or for a session another server ran, there is none and the size is estimated.
     */
    private final java.util.Map<ai.lango.turn.SessionRef, ModelCall> latestReported = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The latest agent call of the session whose prompt size the provider reported: the one call, never a sum over
     * calls; never a background call's (a summary's, the observer's); never an estimate.
     */
    public java.util.Optional<ModelCall> latestReported(String userId, String sessionKey) {
        return java.util.Optional.ofNullable(latestReported.get(ai.lango.turn.SessionRef.of(userId, sessionKey)));
    }

    private void noteReported(ModelCall call) {
        if (!ModelCall.AGENT.equals(call.purpose()) || call.estimated() || call.userId() == null
                || call.sessionKey() == null) {
            return;
        }
        if (latestReported.size() >= MAX_SESSIONS_KEPT) {
            latestReported.clear();
        }
        latestReported.merge(ai.lango.turn.SessionRef.of(call.userId(), call.sessionKey()), call,
                (kept, made) -> made.at().isBefore(kept.at()) ? kept : made);
    }

    void counted(ModelCall call) {
        noteReported(call);
        Tags tags = Tags.of("provider", call.provider(), "model", call.model(), "purpose", call.purpose());
        registry.counter("lango.usage.tokens", tags.and("type", "input")).increment(call.inputTokens());
        registry.counter("lango.usage.tokens", tags.and("type", "output")).increment(call.outputTokens());
        registry.counter("lango.usage.tokens", tags.and("type", "cached")).increment(call.cachedTokens());
        registry.counter("lango.usage.cost.usd", tags).increment(call.costUsd().doubleValue());
        registry.counter("lango.usage.calls", tags.and("estimated", String.valueOf(call.estimated()))).increment();
        budgets.spent(call);
    }
}
