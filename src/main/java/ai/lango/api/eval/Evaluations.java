package ai.lango.api.eval;

import ai.lango.adk.AdkSessions;
import ai.lango.turns.Turns;
import ai.lango.api.ApiError;
import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.eval.EvalCase;
import ai.lango.eval.EvalFormat;
import ai.lango.eval.EvalFormatException;
import ai.lango.eval.EvalLibrary;
import ai.lango.eval.EvalRun;
import ai.lango.eval.EvalRunner;
import ai.lango.eval.EvalRuns;
import ai.lango.eval.EvalSet;
import ai.lango.eval.EvalStore;
import ai.lango.eval.Invocation;
import ai.lango.eval.Metric;
import ai.lango.eval.SessionConversation;
import ai.lango.security.Identity;
import ai.lango.turn.Names;
import ai.lango.usage.Budgets;
import ai.lango.usage.UsageLedger;
import ai.lango.usage.UsageRows;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What both evaluation edges do (ADK's routes the dev UI calls, and Lango's /api/eval): read and change the
 * caller's eval sets, make a case from a stored session, run a set and keep its result.
 */
@ApplicationScoped
public class Evaluations {

    /** The most results a list gives. */
    static final int RESULTS_LISTED = 200;
    static final int MAX_RUNS = 10;

    @Inject
    EvalLibrary library;

    @Inject
    EvalStore store;

    @Inject
    EvalRuns runs;

    @Inject
    AdkSessions sessions;

    @Inject
    Turns turns;

    @Inject
    Approvals approvals;


    @Inject
    UsageRows usage;

    @Inject
    UsageLedger ledger;

    @Inject
    Budgets budgets;

    @Inject
    LangoSettings settings;

    /** Whether the caller administers: makes, sees, runs and changes the shared sets. */
    static boolean administers(Identity caller) {
        return caller.administersAs(caller.userId());
    }

    /** A new case {@code evalId} of the set, made from the caller's stored session {@code sessionId} of {@code userId}. */
    void addSession(Identity caller, String setId, JsonNode body) throws EvalFormatException {
        String evalId = text(body, "evalId", "eval_id");
        String sessionId = text(body, "sessionId", "session_id");
        String userId = Optional.ofNullable(text(body, "userId", "user_id")).orElse(caller.userId());
        if (evalId == null || sessionId == null) {
            throw new EvalFormatException("evalId and sessionId are required");
        }
        if (!EvalFormat.validId(evalId)) {
            throw new EvalFormatException("evalId: \"" + evalId + "\" is not 1-128 letters, digits, '_', '-' or '.'");
        }
        if (!caller.mayActAs(userId)) {
            throw new EvalLibrary.Refused(403, "forbidden", "you may not read the sessions of user \"" + userId + "\"");
        }
        EvalLibrary.Owned owned = library.get(caller.userId(), administers(caller), setId);
        if (owned.set().find(evalId).isPresent()) {
            throw new EvalLibrary.Refused(400, "eval_case_exists", "eval set \"" + setId + "\" has a case \"" + evalId + "\" already");
        }
        String json = sessions.read(userId, sessionId).orElseThrow(() -> new EvalLibrary.Refused(404, "session_not_found",
                "no session \"" + sessionId + "\" for user \"" + userId + "\""));
        JsonNode session;
        try {
            session = EvalFormat.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored session does not read", e);
        }
        List<Invocation> conversation = SessionConversation.invocations(session);
        if (conversation.isEmpty()) {
            throw new EvalLibrary.Refused(400, "empty_session", "session \"" + sessionId + "\" holds no message of the user");
        }
        ObjectNode input = EvalFormat.MAPPER.createObjectNode().put("app_name", Names.APP).put("user_id", userId);
        input.putObject("state");
        double now = System.currentTimeMillis() / 1000.0;
        EvalSet changed = owned.set().with(new EvalCase(evalId, conversation, input, now, null));
        library.save(caller.userId(), administers(caller), new EvalLibrary.Owned(owned.owner(), changed));
    }

    /** Puts a case in a set (new, or in place of the one with its id). */
    void putCase(Identity caller, String setId, String evalId, JsonNode body) throws EvalFormatException {
        EvalLibrary.Owned owned = library.get(caller.userId(), administers(caller), setId);
        if (body == null || !body.isObject()) {
            throw new EvalFormatException("the body must be an eval case {evalId, conversation, sessionInput}");
        }
        String named = text(body, "evalId", "eval_id");
        if (named != null && !named.isEmpty() && !named.equals(evalId)) {
            throw new EvalFormatException("evalId: \"" + named + "\" is not the case \"" + evalId + "\" of the path");
        }
        ObjectNode withId = ((ObjectNode) body.deepCopy()).put("evalId", evalId);
        withId.remove("eval_id");
        EvalCase evalCase = EvalFormat.readCase(withId, "eval case");
        if (owned.set().find(evalId).isEmpty()) {
            throw new EvalLibrary.Refused(404, "eval_case_not_found", "eval set \"" + setId + "\" has no case \"" + evalId + "\"");
        }
        save(caller, owned, owned.set().with(evalCase));
    }

    void deleteCase(Identity caller, String setId, String evalId) {
        EvalLibrary.Owned owned = library.get(caller.userId(), administers(caller), setId);
        if (owned.set().find(evalId).isEmpty()) {
            throw new EvalLibrary.Refused(404, "eval_case_not_found", "eval set \"" + setId + "\" has no case \"" + evalId + "\"");
        }
        save(caller, owned, owned.set().without(evalId));
    }

    /** Replaces (or makes) a whole set from ADK's file format: shared when an administrator puts it. */
    EvalSet putSet(Identity caller, String setId, JsonNode body) throws EvalFormatException {
        if (!EvalFormat.validId(setId)) {
            throw new EvalFormatException("eval set id \"" + setId + "\" is not 1-128 letters, digits, '_', '-' or '.'");
        }
        EvalSet set = body != null && body.isArray() ? EvalFormat.readFile(setId + ".test.json", body.toString())
                : EvalFormat.readSet(body, "eval set", setId);
        boolean admin = administers(caller);
        String owner = library.find(caller.userId(), admin, setId).map(EvalLibrary.Owned::owner)
                .orElse(admin ? EvalLibrary.SHARED : caller.userId());
        library.save(caller.userId(), admin, new EvalLibrary.Owned(owner, set));
        return set;
    }

    private void save(Identity caller, EvalLibrary.Owned owned, EvalSet changed) {
        library.save(caller.userId(), administers(caller), new EvalLibrary.Owned(owned.owner(), changed));
    }

    /**
     * Runs the set's cases ({@code evalIds}, or {@code evalCaseIds}; none: all) by the metrics asked
     * ({@code evalMetrics}; none: ADK's defaults) {@code numRuns} times each (1-10, default 1) as the caller; the
     * result, stored before it is returned.
     */
    ObjectNode run(Identity caller, String setId, JsonNode body) throws EvalFormatException {
        JsonNode request = body == null || body.isNull() ? EvalFormat.MAPPER.createObjectNode() : body;
        if (!request.isObject()) {
            throw new EvalFormatException("the body must be {evalIds, evalMetrics, numRuns}");
        }
        EvalLibrary.Owned owned = library.get(caller.userId(), administers(caller), setId);
        List<String> ids = new ArrayList<>();
        for (String field : List.of("evalIds", "eval_ids", "evalCaseIds", "eval_case_ids")) {
            JsonNode listed = request.path(field);
            if (!listed.isMissingNode() && !listed.isNull() && !listed.isArray()) {
                throw new EvalFormatException(field + ": must be a list of eval case ids");
            }
            for (JsonNode id : listed) {
                if (!ids.contains(id.asText())) {
                    ids.add(id.asText());
                }
            }
        }
        List<EvalCase> cases = new ArrayList<>();
        for (String id : ids) {
            cases.add(owned.set().find(id).orElseThrow(() -> new EvalLibrary.Refused(400, "eval_case_not_found",
                    "evalIds: \"" + id + "\" is not a case of eval set \"" + setId + "\"")));
        }
        if (ids.isEmpty()) {
            cases.addAll(owned.set().cases());
        }
        if (cases.isEmpty()) {
            throw new EvalLibrary.Refused(400, "empty_eval_set", "eval set \"" + setId + "\" has no cases to run");
        }
        List<Metric> metrics = Metric.parse(request.has("evalMetrics") ? request.get("evalMetrics") : request.get("eval_metrics"));
        JsonNode numRuns = request.has("numRuns") ? request.get("numRuns") : request.path("num_runs");
        int times = numRuns.isMissingNode() || numRuns.isNull() ? 1 : numRuns.isInt() ? numRuns.asInt() : -1;
        if (times < 1 || times > MAX_RUNS) {
            throw new EvalFormatException("numRuns: must be a whole number from 1 to " + MAX_RUNS);
        }
        if (turns.unavailable().isPresent()) {
            throw new EvalLibrary.Refused(503, "agent_unavailable", turns.unavailable().get());
        }
        EvalRun run = runs.start(caller.userId(), caller.admin(), setId);
        try {
            AgentForEval replayed = new AgentForEval(turns, usage, ledger, budgets, settings, caller);
            ObjectNode ran = new EvalRunner(replayed).run(run, administers(caller), owned.set(), cases,
                    metrics, times);
            // what the agent did is stored and answered as sessions are: no known secret's value in it
            String masked = ai.lango.masking.SecretMask.mask(ran.toString(), caller.audience());
            ObjectNode result = (ObjectNode) EvalFormat.MAPPER.readTree(masked);
            store.saveResult(result.path("evalSetResultId").asText(), caller.userId(), setId, result.path("status").asText(),
                    masked, System.currentTimeMillis());
            return result;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a masked eval result does not read", e);
        } finally {
            runs.finished(run);
        }
    }

    /** Stops a run: its current turn ends, the cases not reached are not evaluated. */
    void cancel(EvalRun run) {
        run.cancel(new AgentForEval(turns, usage, ledger, budgets, settings, Identity.OPERATOR));
    }

    /** The caller's stored result. */
    ObjectNode result(Identity caller, String id) {
        String json = store.result(id, caller.userId()).orElseThrow(() -> new EvalLibrary.Refused(404, "eval_result_not_found",
                "no eval result \"" + id + "\""));
        try {
            return (ObjectNode) EvalFormat.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored eval result does not read", e);
        }
    }

    List<String> resultIds(Identity caller) {
        return store.resultIds(caller.userId(), RESULTS_LISTED);
    }

    /** The cases of a run's result, as ADK's run_eval answers them (RunEvalResult each). */
    static ArrayNode runEvalResults(ObjectNode result) {
        ArrayNode cases = EvalFormat.MAPPER.createArrayNode();
        result.path("evalCaseResults").forEach(cases::add);
        return cases;
    }

    /** What went wrong, as the JSON error the edges answer with. */
    static Response refused(RuntimeException failure) {
        if (failure instanceof EvalLibrary.Refused refused) {
            return ApiError.of(Response.Status.fromStatusCode(refused.status()), refused.code(), refused.getMessage());
        }
        throw failure;
    }

    static Response invalid(EvalFormatException e) {
        return ApiError.of(Response.Status.BAD_REQUEST, "invalid_eval", e.getMessage());
    }

    static JsonNode parse(String body) throws EvalFormatException {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return EvalFormat.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new EvalFormatException("the body is not JSON: " + ApiError.notJson(e));
        }
    }

    private static String text(JsonNode body, String... names) {
        for (String name : names) {
            if (body != null && body.path(name).isTextual()) {
                return body.path(name).asText();
            }
        }
        return null;
    }
}
