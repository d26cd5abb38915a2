package ai.lango.api.eval;

import ai.lango.turns.TurnRefused;
import ai.lango.turns.Turns;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.eval.EvalAgent;
import ai.lango.provider.Completion;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.security.Identity;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.TurnEvent;
import ai.lango.usage.AsideCalls;
import ai.lango.usage.Budgets;
import ai.lango.turn.ModelCall;
import ai.lango.usage.UsageLedger;
import ai.lango.usage.UsageRows;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The agent an eval run of {@code caller} replays against: turns admitted as the caller's own turns are (budgets,
 * concurrency), approvals answered through the approval gate as the caller would answer them, the judge asked on
 * the configured model with its usage counted as the caller's ({@code eval}), never past the caller's budgets.
 */
final class AgentForEval implements EvalAgent {

    private final Turns turns;
    private final UsageRows usage;
    private final UsageLedger ledger;
    private final Budgets budgets;
    private final LangoSettings settings;
    private final Identity caller;
    private Provider judge;

    AgentForEval(Turns turns, UsageRows usage, UsageLedger ledger, Budgets budgets, LangoSettings settings, Identity caller) {
        this.turns = turns;
        this.usage = usage;
        this.ledger = ledger;
        this.budgets = budgets;
        this.settings = settings;
        this.caller = caller;
    }

    @Override
    public CompletableFuture<String> turn(String userId, boolean admin, String sessionKey, String message, Consumer<TurnEvent> events) {
        try {
            return turns.start(caller, userId, sessionKey, message, false, Turns.Listener.of(events).from("eval", null));
        } catch (TurnRefused refused) {
            return CompletableFuture.failedFuture(new IllegalStateException(refused.getMessage()));
        }
    }

    @Override
    public CompletableFuture<String> answer(String userId, boolean admin, String approvalId, boolean approved, Consumer<TurnEvent> events) {
        try {
            // The turn it goes on with is let in before anything is decided: a refused answer leaves the request waiting.
            return turns.answer(caller, approvalId, approved, false, Optional.of(() -> Turns.Listener.of(events)));
        } catch (TurnRefused refused) {
            return CompletableFuture.failedFuture(new IllegalStateException(refused.getMessage()));
        }
    }

    @Override
    public void stop(String userId, String sessionKey) {
        turns.stop(userId, sessionKey);
    }

    @Override
    public Map<String, Object> configuration() {
        Map<String, Object> configuration = new LinkedHashMap<>();
        configuration.put("provider", settings.model().provider().map(LangoSettings.ModelProvider::id).orElse("none"));
        configuration.put("model", settings.model().name().orElse(""));
        configuration.put("promptHash", turns.promptsFingerprint());
        configuration.put("multiAgent", settings.agent().multiAgent());
        List<Map<String, Object>> agents = new ArrayList<>();
        turns.agents().ifPresent(root -> collect(root, agents));
        configuration.put("agents", agents);
        return configuration;
    }

    private static void collect(AgentInfo info, List<Map<String, Object>> into) {
        into.add(Map.of("name", info.name(), "tools", info.tools()));
        info.subAgents().forEach(sub -> collect(sub, into));
    }

    @Override
    public Map<String, Object> usage(String userId, List<String> sessionKeys) {
        long input = 0;
        long output = 0;
        BigDecimal cost = BigDecimal.ZERO;
        long calls = 0;
        for (String session : sessionKeys) {
            for (UsageRows.Totals totals : usage.totals(Optional.of(userId), Optional.of(session), Instant.EPOCH,
                    Instant.now().plusSeconds(60), "model").values()) {
                input += totals.inputTokens();
                output += totals.outputTokens();
                cost = cost.add(totals.costUsd());
                calls += totals.calls();
            }
        }
        return Map.of("modelCalls", calls, "inputTokens", input, "outputTokens", output, "costUsd", cost);
    }

    @Override
    public synchronized String judge(String userId, String sessionKey, String instruction, String question) {
        // as before each of the agent's own model calls: a user past a budget gets no judge call
        budgets.check(userId, caller.administersAs(userId)).ifPresent(reached -> {
            throw new IllegalStateException(reached.message());
        });
        LangoSettings.ModelProvider chosen = settings.model().provider().orElseThrow(() ->
                new IllegalStateException("the judge has no model: set lango.provider and lango.model"));
        String model = settings.model().name().orElseThrow(() -> new IllegalStateException("the judge has no model: set lango.model"));
        if (judge == null) {
            judge = ProviderCatalog.create(chosen.id(), chosen.baseUrl(), chosen.apiKey(), chosen.readTimeout());
        }
        return Completion.complete(judge, model, instruction, question,
                AsideCalls.recordedIn(ledger, userId, sessionKey, ModelCall.EVAL, judge.id(), TokenEstimator::estimate));
    }
}
