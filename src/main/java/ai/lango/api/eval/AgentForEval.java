package ai.lango.api.eval;

import ai.lango.adk.AgentService;
import ai.lango.api.TurnAdmission;
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
import ai.lango.turn.TurnRequest;
import ai.lango.usage.AsideCalls;
import ai.lango.usage.Budgets;
import ai.lango.usage.ModelCall;
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

    private final AgentService agent;
    private final Approvals approvals;
    private final TurnAdmission admissions;
    private final UsageRows usage;
    private final UsageLedger ledger;
    private final Budgets budgets;
    private final LangoSettings settings;
    private final Identity caller;
    private Provider judge;

    AgentForEval(AgentService agent, Approvals approvals, TurnAdmission admissions, UsageRows usage, UsageLedger ledger,
                 Budgets budgets, LangoSettings settings, Identity caller) {
        this.agent = agent;
        this.approvals = approvals;
        this.admissions = admissions;
        this.usage = usage;
        this.ledger = ledger;
        this.budgets = budgets;
        this.settings = settings;
        this.caller = caller;
    }

    @Override
    public CompletableFuture<String> turn(String userId, boolean admin, String sessionKey, String message, Consumer<TurnEvent> events) {
        TurnAdmission.Admission admission = admissions.admit(caller, userId, sessionKey);
        if (!admission.admitted()) {
            return CompletableFuture.failedFuture(new IllegalStateException(admission.message()));
        }
        CompletableFuture<String> turn;
        try {
            turn = agent.chat(new TurnRequest(userId, admin, sessionKey, message, false), events);
        } catch (RuntimeException e) {
            admission.permit().close();
            throw e;
        }
        return turn.whenComplete((answer, failure) -> admission.permit().close());
    }

    @Override
    public CompletableFuture<String> answer(String userId, boolean admin, String approvalId, boolean approved, Consumer<TurnEvent> events) {
        Optional<Approval> waiting = approvals.get(approvalId);
        if (waiting.isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalStateException("the request for approval " + approvalId + " was not found"));
        }
        // The turn it resumes is admitted before anything is decided: a refused answer leaves the request waiting.
        TurnAdmission.Admission admission = admissions.admit(caller, userId, waiting.get().sessionKey());
        if (!admission.admitted()) {
            return CompletableFuture.failedFuture(new IllegalStateException(admission.message()));
        }
        Optional<Approvals.Outcome> outcome = approvals.decide(approvalId, userId, approved, Approval.By.USER);
        if (outcome.isEmpty() || !outcome.get().decidedNow()) {
            admission.permit().close();
            return CompletableFuture.failedFuture(new IllegalStateException("the request for approval " + approvalId + " was "
                    + outcome.map(o -> o.decision().wire()).orElse("not found") + " already"));
        }
        return agent.resume(approvals.get(approvalId).orElseThrow(), admin, false, events)
                .whenComplete((answer, failure) -> admission.permit().close());
    }

    @Override
    public void stop(String userId, String sessionKey) {
        agent.stop(userId, sessionKey);
    }

    @Override
    public Map<String, Object> configuration() {
        Map<String, Object> configuration = new LinkedHashMap<>();
        configuration.put("provider", settings.model().provider().map(LangoSettings.ModelProvider::id).orElse("none"));
        configuration.put("model", settings.model().name().orElse(""));
        configuration.put("promptHash", agent.promptsFingerprint());
        configuration.put("multiAgent", settings.agent().multiAgent());
        List<Map<String, Object>> agents = new ArrayList<>();
        agent.agents().ifPresent(root -> collect(root, agents));
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
