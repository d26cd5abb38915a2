package ai.lango.eval;

import ai.lango.turn.Names;
import ai.lango.turn.TurnEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Replays eval cases against the agent as configured now and scores them. Each run of a case is a fresh session
 * ({@value Names#EVAL_SESSION_PREFIX}…, tools in a scratch folder); each expected invocation's message is sent as
 * a turn; a request for approval is answered as the case recorded it for that tool and those arguments (in order),
 * and a call the case did not record, or one that carries a secret, is denied; the tool calls, the agents handed to,
 * the approvals and the answer make the actual invocation. The result is ADK's EvalSetResult (camelCase, statuses
 * 1 passed, 2 failed, 3 not evaluated) with Lango's additions: each run of a case, the configuration it ran under and
 * what it used.
 */
public final class EvalRunner {

    public static final int PASSED = 1;
    public static final int FAILED = 2;
    public static final int NOT_EVALUATED = 3;

    private final EvalAgent agent;

    public EvalRunner(EvalAgent agent) {
        this.agent = agent;
    }

    /** One replay of a case: its session, the invocations it produced, and why it stopped early (null: it did not). */
    record Replay(String session, List<Invocation> actual, String error, boolean interrupted) {

        /** How many of its turns ended with an answer: a failed turn (the last one produced) did not. */
        int answered() {
            return error == null || interrupted ? actual.size() : actual.size() - 1;
        }
    }

    /** Runs {@code cases} of {@code set} {@code numRuns} times each; the stored form of the result. */
    public ObjectNode run(EvalRun run, boolean admin, EvalSet set, List<EvalCase> cases, List<Metric> metrics, int numRuns) {
        long createdMillis = System.currentTimeMillis();
        ArrayNode results = EvalFormat.MAPPER.createArrayNode();
        List<String> sessions = new ArrayList<>();
        boolean anyFailed = false;
        boolean allPassed = !cases.isEmpty();
        for (EvalCase evalCase : cases) {
            List<Replay> replays = new ArrayList<>();
            for (int r = 0; r < numRuns; r++) {
                Replay replay = replay(run, admin, evalCase);
                replays.add(replay);
                if (replay.session() != null) {
                    sessions.add(replay.session());
                }
            }
            ObjectNode result = score(run, set, evalCase, replays, metrics);
            int status = result.path("finalEvalStatus").asInt();
            anyFailed |= status == FAILED;
            allPassed &= status == PASSED;
            results.add(result);
        }
        ObjectNode json = EvalFormat.MAPPER.createObjectNode();
        String id = resultId(set.id(), createdMillis);
        json.put("evalSetResultId", id);
        json.put("evalSetResultName", id);
        json.put("evalSetId", set.id());
        json.set("creationTimestamp", new DecimalNode(BigDecimal.valueOf(createdMillis, 3)));
        json.set("evalCaseResults", results);
        json.put("status", allPassed ? "passed" : anyFailed ? "failed" : "not_evaluated");
        json.put("userId", run.userId());
        json.put("numRuns", numRuns);
        ArrayNode asked = json.putArray("metrics");
        for (Metric metric : metrics) {
            ObjectNode m = asked.addObject().put("metricName", metric.name()).put("threshold", metric.threshold());
            if (metric.name().equals(Metric.TRAJECTORY)) {
                m.put("matchType", metric.matchType().name());
            }
        }
        if (run.canceled()) {
            json.put("canceled", true);
        }
        json.set("configuration", EvalFormat.MAPPER.valueToTree(agent.configuration()));
        json.set("usage", EvalFormat.MAPPER.valueToTree(agent.usage(run.userId(), sessions)));
        // in seconds, as every time in the file is (ADK's timestamps, JUnit's time)
        json.set("durationSeconds", new DecimalNode(BigDecimal.valueOf(System.currentTimeMillis() - createdMillis, 3)));
        return json;
    }

    /** ADK's result id, {@code <app>_<set>_<seconds>}, the seconds as the dev UI writes the number back. */
    public static String resultId(String setId, long millis) {
        String seconds = BigDecimal.valueOf(millis, 3).toPlainString();
        seconds = seconds.replaceAll("0+$", "").replaceAll("\\.$", "");
        return Names.APP + "_" + setId + "_" + seconds;
    }

    private Replay replay(EvalRun run, boolean admin, EvalCase evalCase) {
        List<Invocation> actual = new ArrayList<>();
        if (run.canceled() || Instant.now().isAfter(run.deadline())) {
            return new Replay(null, actual, run.canceled() ? "the run was canceled" : "the eval's time limit (lango.eval.timeout) passed",
                    true);
        }
        String session = Names.EVAL_SESSION_PREFIX + UUID.randomUUID();
        run.replaying(session);
        for (Invocation expected : evalCase.conversation()) {
            Recorder recorder = new Recorder(expected);
            try {
                String answer = await(run, session, agent.turn(run.userId(), admin, session, expected.userText(), recorder));
                TurnEvent.ApprovalRequest asked;
                while ((asked = recorder.nextAsked()) != null) {
                    boolean approved = recorder.decide(asked);
                    String resumed = await(run, session, agent.answer(run.userId(), admin, asked.approvalId(), approved, recorder));
                    answer = resumed == null || resumed.isEmpty() ? answer : resumed;
                }
                actual.add(recorder.invocation(expected, answer));
            } catch (Stopped stopped) {
                if (!stopped.interrupted) { // a failed turn is what the agent did; a stopped one is not scored
                    actual.add(recorder.invocation(expected, null));
                }
                return new Replay(session, actual, stopped.getMessage(), stopped.interrupted);
            }
        }
        return new Replay(session, actual, null, false);
    }

    private String await(EvalRun run, String session, CompletableFuture<String> turn) throws Stopped {
        long left = run.deadline().toEpochMilli() - System.currentTimeMillis();
        try {
            String answer = turn.get(Math.max(1, left), TimeUnit.MILLISECONDS);
            if (run.canceled()) {
                throw new Stopped("the run was canceled", true);
            }
            return answer;
        } catch (TimeoutException e) {
            agent.stop(run.userId(), session);
            throw new Stopped("the eval's time limit (lango.eval.timeout) passed", true);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (run.canceled()) {
                throw new Stopped("the run was canceled", true);
            }
            throw new Stopped("the turn failed: " + cause.getMessage(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            agent.stop(run.userId(), session);
            throw new Stopped("interrupted", true);
        }
    }

    private static final class Stopped extends Exception {
        final boolean interrupted;

        Stopped(String message, boolean interrupted) {
            super(message);
            this.interrupted = interrupted;
        }
    }

    /** What one turn did, as it happens: tool calls, delegations, requests for approval and how they were answered. */
    private static final class Recorder implements Consumer<TurnEvent> {
        private final List<Invocation.ApprovalStep> expected;
        private final List<Invocation.ToolUse> expectedCalls;
        private final boolean[] used;
        final List<Invocation.ToolUse> toolUses = new CopyOnWriteArrayList<>();
        final List<String> delegations = new CopyOnWriteArrayList<>();
        final List<Invocation.ApprovalStep> approvals = new CopyOnWriteArrayList<>();
        private final List<TurnEvent.ApprovalRequest> asked = new CopyOnWriteArrayList<>();

        Recorder(Invocation expected) {
            this.expected = expected.approvals();
            this.expectedCalls = expected.toolUses();
            this.used = new boolean[this.expected.size()];
        }

        @Override
        public void accept(TurnEvent event) {
            if (event instanceof TurnEvent.ToolCall call) {
                toolUses.add(new Invocation.ToolUse(call.name(), EvalFormat.MAPPER.valueToTree(call.args())));
            } else if (event instanceof TurnEvent.Delegation delegation) {
                delegations.add(delegation.to());
            } else if (event instanceof TurnEvent.ApprovalRequest request) {
                asked.add(request);
            }
        }

        TurnEvent.ApprovalRequest nextAsked() {
            return asked.isEmpty() ? null : asked.remove(0);
        }

        /**
         * The decision the case recorded for this request: that of the first step not yet used about the same tool
         * and the same arguments (those recorded with the step; a step recorded without them: those of one of the
         * turn's expected calls). A call the case did not record, and any call that carries a secret, is denied.
         */
        synchronized boolean decide(TurnEvent.ApprovalRequest request) {
            Invocation.ToolUse call = new Invocation.ToolUse(request.tool(), EvalFormat.MAPPER.valueToTree(request.args()));
            boolean approved = false;
            boolean recordable = !carriesSecret(request, call);
            for (int i = 0; recordable && i < expected.size(); i++) {
                Invocation.ApprovalStep step = expected.get(i);
                if (!used[i] && step.tool().equals(call.name()) && (step.args() != null
                        ? Trajectory.same(new Invocation.ToolUse(step.tool(), step.args()), call)
                        : expectedCalls.stream().anyMatch(recorded -> Trajectory.same(recorded, call)))) {
                    used[i] = true;
                    approved = step.approved();
                    break;
                }
            }
            approvals.add(new Invocation.ApprovalStep(call.name(), approved));
            return approved;
        }

        /**
         * Whether the call would hand a secret to the tool, which no replay approves: the approval gate names the
         * secrets a call carries, and its arguments hold a {{secret:…}} reference or a known secret's value (as it
         * is, or already masked: [SECRET:NAME], [SECRET]).
         */
        private static boolean carriesSecret(TurnEvent.ApprovalRequest request, Invocation.ToolUse call) {
            String args = call.args().toString();
            return request.notes() != null && request.notes().get("secrets") != null || args.contains("{{secret:")
                    || args.contains("[SECRET") || !ai.lango.masking.SecretMask.mask(args).equals(args);
        }

        Invocation invocation(Invocation expected, String answer) {
            return new Invocation("", expected.userText(), answer == null ? "" : answer, toolUses, delegations, approvals,
                    System.currentTimeMillis() / 1000.0, null);
        }
    }

    // ------------------------------------------------------------------------------ scoring

    private ObjectNode score(EvalRun run, EvalSet set, EvalCase evalCase, List<Replay> replays, List<Metric> metrics) {
        List<Invocation> expected = evalCase.conversation();
        ObjectNode result = EvalFormat.MAPPER.createObjectNode();
        result.put("evalSetFile", set.id());
        result.put("evalSetId", set.id());
        result.put("evalId", evalCase.evalId());
        result.putArray("evalMetricResults");
        ArrayNode perInvocation = result.putArray("evalMetricResultPerInvocation");
        ArrayNode runsJson = EvalFormat.MAPPER.createArrayNode();
        List<List<Double>> pooled = new ArrayList<>();
        metrics.forEach(m -> pooled.add(new ArrayList<>()));
        String error = null;
        boolean interrupted = false;
        boolean turnFailed = false;
        boolean anyReplayed = false;
        for (Replay replay : replays) {
            List<List<Double>> ofRun = new ArrayList<>();
            metrics.forEach(m -> ofRun.add(new ArrayList<>()));
            boolean replayed = replay.session() != null;
            anyReplayed |= replayed;
            for (int i = 0; replayed && i < expected.size(); i++) {
                Invocation want = expected.get(i);
                Invocation got = i < replay.actual().size() ? replay.actual().get(i)
                        : new Invocation("", want.userText(), "", List.of(), List.of(), List.of(), 0, null);
                boolean reached = i < replay.actual().size();
                ArrayNode metricResults = EvalFormat.MAPPER.createArrayNode();
                for (int m = 0; m < metrics.size(); m++) {
                    Double score = replay.interrupted() && !reached ? null
                            : score(metrics.get(m), want, got, i < replay.answered(), run, replay.session());
                    ofRun.get(m).add(score);
                    pooled.get(m).add(score);
                    metricResults.add(metricResult(metrics.get(m), score));
                }
                ObjectNode entry = perInvocation.addObject();
                entry.set("actualInvocation", EvalFormat.invocationJson(got, true, true));
                entry.set("expectedInvocation", EvalFormat.invocationJson(want, true, false));
                entry.set("evalMetricResults", metricResults);
            }
            ObjectNode runJson = runsJson.addObject();
            if (replay.session() != null) {
                runJson.put("sessionId", replay.session());
            }
            ArrayNode overall = runJson.putArray("overallEvalMetricResults");
            for (int m = 0; m < metrics.size(); m++) {
                overall.add(metricResult(metrics.get(m), mean(ofRun.get(m))));
            }
            runJson.put("finalEvalStatus", replay.error() == null ? status(overall) : replay.interrupted() ? NOT_EVALUATED : FAILED);
            if (replay.error() != null) {
                runJson.put("error", replay.error());
                error = error == null ? replay.error() : error;
                interrupted |= replay.interrupted();
                turnFailed |= !replay.interrupted();
            }
        }
        ArrayNode overall = result.putArray("overallEvalMetricResults");
        for (int m = 0; m < metrics.size(); m++) {
            overall.add(metricResult(metrics.get(m), mean(pooled.get(m))));
        }
        int status = !anyReplayed ? NOT_EVALUATED : turnFailed ? FAILED : interrupted ? NOT_EVALUATED : status(overall);
        result.put("finalEvalStatus", status);
        String first = replays.stream().map(Replay::session).filter(s -> s != null).findFirst().orElse("");
        result.put("sessionId", first);
        result.put("userId", run.userId());
        result.set("runs", runsJson);
        if (error != null) {
            result.put("error", error);
        }
        return result;
    }

    /** A metric's score for one turn; {@code answered}: the turn ended with an answer (a failed one is never judged). */
    private Double score(Metric metric, Invocation want, Invocation got, boolean answered, EvalRun run, String session) {
        return switch (metric.name()) {
            case Metric.TRAJECTORY -> Trajectory.matches(want.toolUses(), got.toolUses(), metric.matchType()) ? 1.0 : 0.0;
            case Metric.RESPONSE -> want.finalResponse() == null ? null : Rouge.rouge1(want.finalResponse(), got.finalResponse());
            case Metric.DELEGATION -> want.delegations().equals(got.delegations()) ? 1.0 : 0.0;
            case Metric.APPROVAL -> asked(want).equals(asked(got)) ? 1.0 : 0.0;
            case Metric.JUDGE -> want.finalResponse() == null || !answered ? null : judged(metric, want, got, run, session);
            default -> null;
        };
    }

    private Double judged(Metric metric, Invocation want, Invocation got, EvalRun run, String session) {
        List<Double> verdicts = new ArrayList<>();
        String question = Judge.question(want.userText(), got.finalResponse(), want.finalResponse());
        for (int i = 0; i < metric.samples() && !run.canceled(); i++) {
            try {
                verdicts.add(Judge.verdict(agent.judge(run.userId(), session, Judge.INSTRUCTION, question)));
            } catch (RuntimeException e) {
                verdicts.add(null); // a failed call is a sample without a verdict
            }
        }
        return Judge.majority(verdicts);
    }

    /** The approvals a turn asked for, as approval_match compares them: tool and decision, in order. */
    private static List<Invocation.ApprovalStep> asked(Invocation invocation) {
        return invocation.approvals().stream().map(Invocation.ApprovalStep::asked).toList();
    }

    private static ObjectNode metricResult(Metric metric, Double score) {
        ObjectNode json = EvalFormat.MAPPER.createObjectNode().put("metricName", metric.name()).put("threshold", metric.threshold());
        if (score == null) {
            json.put("evalStatus", NOT_EVALUATED);
        } else {
            json.put("score", score);
            json.put("evalStatus", score >= metric.threshold() ? PASSED : FAILED);
        }
        return json;
    }

    private static Double mean(List<Double> scores) {
        double sum = 0;
        int n = 0;
        for (Double score : scores) {
            if (score != null) {
                sum += score;
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }

    /** ADK's rule: a failed metric fails the case; else a passed one passes it; else it is not evaluated. */
    static int status(ArrayNode metricResults) {
        int status = NOT_EVALUATED;
        for (JsonNode result : metricResults) {
            int s = result.path("evalStatus").asInt();
            if (s == FAILED) {
                return FAILED;
            }
            if (s == PASSED) {
                status = PASSED;
            }
        }
        return status;
    }

    /** The sessions of a stored result's cases, for whoever removes them. */
    public static List<String> sessions(JsonNode result) {
        List<String> sessions = new ArrayList<>();
        for (JsonNode caseResult : result.path("evalCaseResults")) {
            for (JsonNode runJson : caseResult.path("runs")) {
                if (runJson.hasNonNull("sessionId")) {
                    sessions.add(runJson.get("sessionId").asText());
                }
            }
        }
        return sessions;
    }

}
