package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Evaluation on the real server, with a scripted model: a recorded session becomes a case through ADK's routes,
 * replayed with the same script it passes, with other tool arguments or another wording it fails and the result
 * says how; approvals are answered as the case recorded them; ADK for Python's own eval file loads and runs; bad
 * input is refused with the reason; results come as JUnit XML for CI.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class EvalIT extends FakeLlmIT {

    /** The tests whose subject is not the database run on the embedded one only (the store is tested on both). */
    private static final String NO_DATABASE = ItDatabase.HSQLDB_TAG;

    private final HttpClient http = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return call(method, path, body, "application/json");
    }

    private HttpResponse<String> call(String method, String path, String body, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "api/" + path))
                .header("Content-Type", "application/json").header("Accept", accept);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return TestJson.MAPPER.readTree(response.body());
    }

    /** The server's eval folder (lango.eval.dir's default, under the IT server's data directory). */
    static Path evalDir() {
        return Path.of("target", "liberty-pg".equals(System.getProperty("arquillian.launch")) ? "it-data-pg" : "it-data", "evals");
    }

    /**
     * The model of every turn whose user message holds {@code ask}: first a call of {@code tool} with {@code args},
     * then, once the call's result is in, {@code answer} — by the turn's own words, so a call made off the request
     * path never takes a reply meant for this one.
     */
    private void script(String ask, String tool, String args, String answer) {
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> {
            JsonNode messages = r.json().path("messages");
            boolean answered = "tool".equals(messages.path(messages.size() - 1).path("role").asText());
            return answered ? Reply.openAiText(answer) : Reply.openAiToolCall("call_" + UUID.randomUUID().toString().substring(0, 8),
                    tool, args);
        });
    }

    /** The documented CI step, scripts/lango-eval, against this server: its exit code, its JUnit XML checked. */
    private Ran ciStep(String set) throws Exception {
        ProcessBuilder step = new ProcessBuilder("scripts/lango-eval", set, report(set).toString());
        step.environment().put("LANGO_URL", base.toString().replaceAll("/$", ""));
        return reporting(set, step);
    }

    /** The documented Maven way, mvn -Peval validate, against this server: its exit code, its JUnit XML checked. */
    private Ran mavenStep(String set) throws Exception {
        return reporting(set, new ProcessBuilder("mvn", "-B", "-Peval", "validate", "-Deval.set=" + set,
                "-Deval.url=" + base.toString().replaceAll("/$", "")));
    }

    private static Path report(String set) {
        return Path.of("target", "eval-reports", "TEST-eval." + set + ".xml");
    }

    /** How a step ended: its exit code and what it printed. */
    record Ran(int code, String output) {
    }

    /** Runs a step that writes {@code set}'s JUnit XML report: its exit code and output, once the report is checked. */
    private static Ran reporting(String set, ProcessBuilder step) throws Exception {
        Files.deleteIfExists(report(set));
        Process process = step.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int code = process.waitFor();
        assertTrue(Files.exists(report(set)) && Files.readString(report(set)).contains("<testsuite name=\"eval." + set + "\""), output);
        return new Ran(code, output);
    }

    private static double score(JsonNode caseResult, String metric) {
        for (JsonNode m : caseResult.path("overallEvalMetricResults")) {
            if (m.path("metricName").asText().equals(metric)) {
                return m.path("score").asDouble(-1);
            }
        }
        throw new AssertionError(metric + " in " + caseResult);
    }

    @Test
    void aRecordedSessionBecomesACaseThatPassesReplayedAndFailsWhenTheAgentChanges() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String set = "notes_" + run;
        String session = "eval-src-" + run;
        String ask = "save a note for " + run;
        String note = "eval-note-" + run + ".txt";
        String args = "{\"path\":\"" + note + "\",\"content\":\"milk\"}";
        script(ask, "fs_write", args, "I saved the note about milk.");
        assertEquals(200, call("POST", "run", TestJson.runRequest("user", session, ask)).statusCode());
        Path userFile = ItWorkspace.dir().resolve(note);
        assertTrue(Files.exists(userFile), "the recorded turn wrote in the user's workspace");
        Files.delete(userFile);

        // the dev UI's calls, as it makes them
        assertEquals(200, call("POST", "apps/lango/eval-sets", "{\"eval_set\":{\"eval_set_id\":\"" + set
                + "\",\"model_execution_mode\":\"live\",\"tool_execution_mode\":\"live\",\"eval_cases\":[]}}").statusCode());
        assertTrue(json(call("GET", "apps/lango/eval_sets", null)).toString().contains("\"" + set + "\""));
        assertEquals(200, call("POST", "apps/lango/eval_sets/" + set + "/add_session",
                "{\"evalId\":\"milk\",\"sessionId\":\"" + session + "\",\"userId\":\"user\"}").statusCode());
        assertEquals("[\"milk\"]", call("GET", "apps/lango/eval_sets/" + set + "/evals", null).body());
        JsonNode evalCase = json(call("GET", "apps/lango/eval_sets/" + set + "/evals/milk", null));
        JsonNode invocation = evalCase.path("conversation").path(0);
        assertEquals(ask, invocation.path("userContent").path("parts").path(0).path("text").asText());
        assertEquals("fs_write", invocation.path("intermediateData").path("toolUses").path(0).path("name").asText());
        assertEquals("I saved the note about milk.", invocation.path("finalResponse").path("parts").path(0).path("text").asText());

        String metrics = "{\"evalIds\":[\"milk\"],\"evalMetrics\":[{\"metricName\":\"tool_trajectory_avg_score\",\"threshold\":1},"
                + "{\"metricName\":\"response_match_score\",\"threshold\":0.7}]}";
        JsonNode passed = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", metrics)).path(0);
        assertEquals(1, passed.path("finalEvalStatus").asInt(), passed.toPrettyString());
        assertEquals(1.0, score(passed, "tool_trajectory_avg_score"));
        assertEquals(1.0, score(passed, "response_match_score"));
        assertFalse(Files.exists(userFile), "the replay wrote in a scratch folder, never the user's workspace");
        String replayed = passed.path("sessionId").asText();
        assertTrue(replayed.startsWith("___eval___session___"), replayed);
        assertEquals(200, call("GET", "apps/lango/users/user/sessions/" + replayed, null).statusCode(), "the dev UI opens the run");
        assertFalse(call("GET", "apps/lango/users/user/sessions", null).body().contains(replayed), "eval sessions are not listed");

        assertEquals(0, ciStep(set).code(), "the CI step passes while the agent does");
        assertEquals(0, mavenStep(set).code(), "so does the Maven step");

        JsonNode ids = json(call("GET", "apps/lango/eval_results", null));
        String resultId = ids.path(0).asText();
        JsonNode stored = json(call("GET", "apps/lango/eval_results/" + resultId, null));
        assertEquals(set, stored.path("evalSetId").asText());
        assertEquals(resultId, "lango_" + set + "_" + new java.math.BigDecimal(stored.path("creationTimestamp").asText())
                .stripTrailingZeros().toPlainString(), "the id the dev UI rebuilds from the run's timestamp");
        assertEquals("gpt-4o-mini", stored.path("configuration").path("model").asText());
        assertTrue(stored.path("configuration").path("promptHash").asText().length() == 12, stored.path("configuration").toString());
        assertTrue(stored.path("usage").path("modelCalls").asLong() >= 2, stored.path("usage").toString());

        // the agent changed: it writes another file, then it words its answer otherwise
        fake.reset();
        script(ask, "fs_write", "{\"path\":\"other.txt\",\"content\":\"milk\"}", "I saved the note about milk.");
        HttpResponse<String> junit = call("POST", "eval/sets/" + set + "/run", metrics, "application/xml");
        assertEquals(200, junit.statusCode(), junit.body());
        assertEquals("failed", junit.headers().firstValue("Lango-Eval-Status").orElse(""));
        assertTrue(junit.body().contains("<testsuite name=\"eval." + set + "\" tests=\"1\" failures=\"1\"")
                && junit.body().contains("tool_trajectory_avg_score 0.0 &lt; 1.0") && junit.body().contains("other.txt"), junit.body());

        Ran ci = ciStep(set);
        assertEquals(1, ci.code(), "the CI step fails once the agent got worse");
        Ran maven = mavenStep(set);
        assertTrue(maven.code() != 0, "and so does the build");
        for (Ran failed : List.of(ci, maven)) { // the failed metric with expected and actual, and no stack trace
            assertTrue(failed.output().contains("failed: tool_trajectory_avg_score 0.0 < 1.0")
                    && failed.output().contains("expected: [{\"name\":\"fs_write\"") && failed.output().contains("other.txt")
                    && !failed.output().contains("\tat "), failed.output());
        }

        fake.reset();
        script(ask, "fs_write", args, "Done: your dairy reminder is stored.");
        JsonNode reworded = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", metrics)).path(0);
        assertEquals(2, reworded.path("finalEvalStatus").asInt());
        assertEquals(1.0, score(reworded, "tool_trajectory_avg_score"));
        assertTrue(score(reworded, "response_match_score") < 0.7, reworded.toString());
        assertEquals("Done: your dairy reminder is stored.", reworded.path("evalMetricResultPerInvocation").path(0)
                .path("actualInvocation").path("finalResponse").path("parts").path(0).path("text").asText());

        // exported in ADK's file format, which reads back as the same case
        JsonNode exported = json(call("GET", "eval/sets/" + set, null));
        assertEquals(set, exported.path("eval_set_id").asText());
        assertEquals("fs_write", exported.path("eval_cases").path(0).path("conversation").path(0).path("intermediate_data")
                .path("tool_uses").path(0).path("name").asText());
        assertTrue(Files.exists(evalDir().resolve(set + ".evalset.json")), "a shared set is a file of the eval folder");
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
        assertFalse(Files.exists(evalDir().resolve(set + ".evalset.json")));
    }

    @Test
    void aJudgeOnTheConfiguredModelScoresTheAnswerAndACaseCanBeDeleted() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String set = "judged_" + run;
        String ask = "how many legs has a spider " + run;
        java.util.concurrent.atomic.AtomicReference<String> verdict = new java.util.concurrent.atomic.AtomicReference<>("valid");
        java.util.List<String> judged = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the judge's request holds the question too: its route comes first
        fake.route(r -> r.body() != null && r.body().contains("is_the_agent_response_valid") && r.body().contains(run), r -> {
            judged.add(r.body());
            return Reply.openAiText("{\"reasoning\": \"the same number\", \"is_the_agent_response_valid\": \"" + verdict.get() + "\"}");
        });
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.openAiText("A spider has eight legs."));
        assertEquals(200, call("POST", "run", TestJson.runRequest("user", "judge-src-" + run, ask)).statusCode());
        assertEquals(200, call("POST", "apps/lango/eval_sets/" + set, null).statusCode(), "created by id, as the older dev UI does");
        assertEquals(200, call("POST", "apps/lango/eval_sets/" + set + "/add_session",
                "{\"evalId\":\"legs\",\"sessionId\":\"judge-src-" + run + "\",\"userId\":\"user\"}").statusCode());
        assertTrue(json(call("GET", "apps/lango/eval-sets", null)).toString().contains("\"" + set + "\""));

        String judge = "{\"evalIds\":[\"legs\"],\"evalMetrics\":[{\"metricName\":\"final_response_match_v2\",\"threshold\":0.5}]}";
        JsonNode valid = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", judge)).path(0);
        assertEquals(1, valid.path("finalEvalStatus").asInt(), valid.toString());
        assertEquals(1.0, score(valid, "final_response_match_v2"));
        assertTrue(!judged.isEmpty() && judged.get(0).contains("A spider has eight legs."), "the configured model judged the answer");
        verdict.set("invalid");
        JsonNode invalid = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", judge)).path(0);
        assertEquals(2, invalid.path("finalEvalStatus").asInt(), invalid.toString());
        assertEquals(0.0, score(invalid, "final_response_match_v2"));
        assertTrue(json(call("GET", "apps/lango/eval-results", null)).path("evalResultIds").size() >= 2, "the runs' results are listed");

        assertEquals(200, call("DELETE", "apps/lango/eval_sets/" + set + "/evals/legs", null).statusCode(), "as ADK's server answers");
        assertEquals("[]", call("GET", "apps/lango/eval_sets/" + set + "/evals", null).body());
        assertEquals(404, call("GET", "apps/lango/eval_sets/" + set + "/evals/legs", null).statusCode());
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
    }

    @Test
    void anApprovalTheCaseRecordedIsAnsweredAsRecorded() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String set = "approvals_" + run;
        String ask = "remove the old report " + run;
        String caseJson = "{\"evalId\":\"remove\",\"conversation\":[{\"userContent\":{\"parts\":[{\"text\":\"" + ask + "\"}]},"
                + "\"finalResponse\":{\"parts\":[{\"text\":\"I did not remove it: the deletion was denied.\"}]},"
                + "\"intermediateData\":{\"toolUses\":[{\"name\":\"fs_delete\",\"args\":{\"path\":\"report.txt\"}}]},"
                + "\"approvals\":[{\"tool\":\"fs_delete\",\"decision\":\"denied\"}]}]}";
        assertEquals(200, call("PUT", "eval/sets/" + set, "{\"eval_set_id\":\"" + set + "\",\"eval_cases\":[{\"eval_id\":\"remove\","
                + "\"conversation\":[{\"user_content\":\"placeholder\"}]}]}").statusCode());
        assertEquals(200, call("PUT", "apps/lango/eval_sets/" + set + "/evals/remove", caseJson).statusCode(), "edited as the dev UI does");
        script(ask, "fs_delete", "{\"path\":\"report.txt\"}", "I did not remove it: the deletion was denied.");
        JsonNode result = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", "{\"evalMetrics\":["
                + "{\"metricName\":\"approval_match\",\"threshold\":1},{\"metricName\":\"tool_trajectory_avg_score\",\"threshold\":1}]}")).path(0);
        assertEquals(1, result.path("finalEvalStatus").asInt(), result.toPrettyString());
        JsonNode actual = result.path("evalMetricResultPerInvocation").path(0).path("actualInvocation");
        assertEquals("[{\"tool\":\"fs_delete\",\"decision\":\"denied\"}]", actual.path("approvals").toString());
        boolean toldDenied = fake.requests().stream().anyMatch(r -> r.body().contains(ask) && r.body().contains("\"role\":\"tool\"")
                && r.body().toLowerCase(java.util.Locale.ROOT).contains("denied"));
        assertTrue(toldDenied, "the model was told the call was denied");
    }

    /**
     * A recorded approval approves that call only: the agent, changed, asks to delete another file under the
     * approval the case recorded for one file, and the replay denies it; the call recorded is approved.
     */
    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aRecordedApprovalApprovesTheSameCallOnly() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String set = "approved_" + run;
        String ask = "remove the draft " + run;
        assertEquals(200, call("PUT", "eval/sets/" + set, "{\"eval_set_id\":\"" + set + "\",\"eval_cases\":[{\"eval_id\":\"rm\","
                + "\"conversation\":[{\"user_content\":\"" + ask + "\",\"final_response\":{\"parts\":[{\"text\":\"Removed.\"}]},"
                + "\"intermediate_data\":{\"tool_uses\":[{\"name\":\"fs_delete\",\"args\":{\"path\":\"draft.txt\"}}]},"
                + "\"approvals\":[{\"tool\":\"fs_delete\",\"decision\":\"approved\"}]}]}]}").statusCode());
        String metrics = "{\"evalMetrics\":[{\"metricName\":\"approval_match\",\"threshold\":1}]}";

        script(ask, "fs_delete", "{\"path\":\"secrets.txt\"}", "Removed.");
        JsonNode other = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", metrics)).path(0);
        assertEquals("[{\"tool\":\"fs_delete\",\"decision\":\"denied\"}]", other.path("evalMetricResultPerInvocation").path(0)
                .path("actualInvocation").path("approvals").toString(), "another file is not what was approved: " + other);
        assertEquals(2, other.path("finalEvalStatus").asInt());

        fake.reset();
        script(ask, "fs_delete", "{\"path\":\"draft.txt\"}", "Removed.");
        JsonNode same = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", metrics)).path(0);
        assertEquals("[{\"tool\":\"fs_delete\",\"decision\":\"approved\"}]", same.path("evalMetricResultPerInvocation").path(0)
                .path("actualInvocation").path("approvals").toString(), same.toString());
        assertEquals(1, same.path("finalEvalStatus").asInt());
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void adkForPythonsOwnEvalFileLoadsFromTheEvalFolderAndRuns() throws Exception {
        String set = "home_automation_" + UUID.randomUUID().toString().substring(0, 8);
        Files.createDirectories(evalDir());
        try (var in = EvalIT.class.getResourceAsStream("/eval/adk-python/home_automation_simple.evalset.json")) {
            Files.copy(in, evalDir().resolve(set + ".evalset.json"));
        }
        Files.writeString(evalDir().resolve("broken_" + set + ".evalset.json"), "{\"eval_set_id\":\"x\",\"eval_cases\":[{\"eval_id\":\"c\"}]}");
        JsonNode listed = json(call("GET", "eval/sets", null));
        assertTrue(listed.path("sets").findValuesAsText("id").contains(set), listed.toString());
        assertTrue(listed.path("problems").toString().contains("broken_" + set + ".evalset.json")
                && listed.path("problems").toString().contains("eval_cases[0].conversation: missing"), listed.toString());
        assertTrue(json(call("GET", "apps/lango/eval_sets", null)).toString().contains(set));

        fake.route(FakeLlmServer.lastUserMessageContains("Turn off device_2 in the Bedroom."), r -> {
            JsonNode messages = r.json().path("messages");
            return "tool".equals(messages.path(messages.size() - 1).path("role").asText())
                    ? Reply.openAiText("I have set the device_2 status to off.")
                    : Reply.openAiToolCall("call_dev", "set_device_info", "{\"location\":\"Bedroom\",\"device_id\":\"device_2\",\"status\":\"OFF\"}");
        });
        JsonNode result = json(call("POST", "apps/lango/eval_sets/" + set + "/run_eval", "{}")).path(0);
        assertEquals(1.0, score(result, "tool_trajectory_avg_score"), result.toPrettyString());
        assertEquals(1.0, score(result, "response_match_score"));
        Files.delete(evalDir().resolve(set + ".evalset.json"));
        Files.delete(evalDir().resolve("broken_" + set + ".evalset.json"));
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void badRequestsAreRefusedWithTheReason() throws Exception {
        String set = "bad_" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(200, call("PUT", "eval/sets/" + set, "[{\"query\":\"hi\",\"expected_tool_use\":[],\"reference\":\"hello\"}]").statusCode(),
                "ADK's older list format");
        HttpResponse<String> unknown = call("POST", "apps/lango/eval_sets/" + set + "/run_eval",
                "{\"evalMetrics\":[{\"metricName\":\"vibes\",\"threshold\":0.5}]}");
        assertEquals(400, unknown.statusCode());
        assertTrue(unknown.body().contains("unknown metric \\\"vibes\\\""), unknown.body());
        HttpResponse<String> outside = call("POST", "apps/lango/eval_sets/" + set + "/run_eval",
                "{\"evalMetrics\":[{\"metricName\":\"response_match_score\",\"threshold\":1.5}]}");
        assertEquals(400, outside.statusCode());
        assertTrue(outside.body().contains("outside 0..1"), outside.body());
        HttpResponse<String> notInSet = call("POST", "apps/lango/eval_sets/" + set + "/run_eval", "{\"evalIds\":[\"nope\"]}");
        assertEquals(400, notInSet.statusCode());
        assertTrue(notInSet.body().contains("\\\"nope\\\" is not a case"), notInSet.body());
        assertEquals(400, call("POST", "eval/sets/" + set + "/run", "{\"numRuns\":0}").statusCode());
        assertEquals(404, call("POST", "apps/lango/eval_sets/no_such_set/run_eval", "{}").statusCode());
        assertEquals(400, call("PUT", "eval/sets/" + set, "{\"eval_cases\":[{\"eval_id\":\"c\",\"conversation\":[{}]}]}").statusCode());
        assertEquals(400, call("POST", "apps/lango/eval-sets", "{\"eval_set\":{\"eval_set_id\":\"../up\"}}").statusCode());
        assertEquals(404, call("POST", "apps/lango/eval_sets/" + set + "/add_session",
                "{\"evalId\":\"x\",\"sessionId\":\"no-such-session\",\"userId\":\"user\"}").statusCode());
        JsonNode metrics = json(call("GET", "apps/lango/metrics-info", null));
        assertEquals(5, metrics.path("metricsInfo").size());
        assertEquals(1.0, metrics.path("metricsInfo").path(0).path("metricValueInfo").path("interval").path("maxValue").asDouble());
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aRunIsCanceledOnRequestAndNeverHoldsUpChat() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String set = "slow_" + run;
        String slow = "think long about " + run;
        assertEquals(200, call("PUT", "eval/sets/" + set, "[{\"query\":\"" + slow + "\",\"reference\":\"done\"}]").statusCode());
        fake.route(FakeLlmServer.lastUserMessageContains(slow), r -> Reply.delayed(java.time.Duration.ofSeconds(60),
                Reply.openAiText("done")));
        java.util.concurrent.CompletableFuture<HttpResponse<String>> running = http.sendAsync(HttpRequest.newBuilder(
                        URI.create(base + "api/apps/lango/eval_sets/" + set + "/run_eval")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        String runId = null;
        long until = System.currentTimeMillis() + 20_000;
        while (runId == null && System.currentTimeMillis() < until) {
            for (JsonNode r : json(call("GET", "eval/runs", null)).path("runs")) {
                if (r.path("evalSetId").asText().equals(set) && r.hasNonNull("sessionId")) {
                    runId = r.path("id").asText();
                }
            }
            Thread.sleep(100);
        }
        assertTrue(runId != null, "the run is listed while it goes on");

        String quick = "a quick question " + run;
        fake.route(FakeLlmServer.lastUserMessageContains(quick), r -> Reply.openAiText("Right away."));
        long asked = System.nanoTime();
        HttpResponse<String> chat = call("POST", "run", TestJson.runRequest("user", "chat-" + run, quick));
        assertEquals(200, chat.statusCode(), chat.body());
        assertTrue(System.nanoTime() - asked < 10_000_000_000L, "chat answered while the eval ran");

        long canceled = System.nanoTime();
        assertEquals(202, call("DELETE", "eval/runs/" + runId, null).statusCode());
        HttpResponse<String> answered = running.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(System.nanoTime() - canceled < 15_000_000_000L, "the waiting turn ended at once");
        JsonNode caseResult = TestJson.MAPPER.readTree(answered.body()).path(0);
        assertEquals(3, caseResult.path("finalEvalStatus").asInt(), answered.body());
        assertEquals("the run was canceled", caseResult.path("error").asText());
        assertEquals(404, call("DELETE", "eval/runs/" + runId, null).statusCode(), "a run that ended is gone");
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
    }

    /**
     * ADK's own dev UI, unmodified, in a real browser: chat once, then in its Evals tab create a set, add the current
     * session to it, run it with the default metrics, and see it passed.
     */
    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void adksDevUiMakesACaseOfTheCurrentSessionRunsItAndShowsItPassed() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(ItBrowser.CHROMIUM), "needs Debian's chromium");
        String run = UUID.randomUUID().toString().substring(0, 8);
        String ask = "what is in my workspace " + run;
        String set = "devui_" + run;
        script(ask, "fs_list", "{\"path\":\".\"}", "Your workspace holds a few files.");
        ChromeDriver page = ItBrowser.start();
        try {
            WebDriverWait wait = new WebDriverWait(page, java.time.Duration.ofSeconds(60));
            page.get(base + "dev-ui/?app=lango");
            WebElement input = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("textarea.chat-input-box")));
            input.sendKeys(ask);
            input.sendKeys(Keys.ENTER);
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Your workspace holds a few files."));

            click(wait, By.xpath("//div[@role='tab'][.//span[contains(@class,'tab-label') and normalize-space()='Evals']]"));
            click(wait, By.xpath("//app-eval-tab//*[contains(@class,'info-create') or (self::button and .//mat-icon[normalize-space()='add'])]"));
            replace(wait, By.cssSelector("mat-dialog-container input"), set);
            click(wait, By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("mat-dialog-container")));
            click(wait, By.xpath("//app-eval-tab//div[contains(@class,'eval-set-name') and normalize-space()='" + set + "']"));

            click(wait, By.xpath("//app-eval-tab//button[contains(.,'From Current Session')]"));
            replace(wait, By.cssSelector("mat-dialog-container input"), "workspace_" + run);
            click(wait, By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("mat-dialog-container")));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("app-eval-tab"), "workspace_" + run));
            ItBrowser.screenshot(page, "adk-dev-ui-eval-case");

            click(wait, By.xpath("//app-eval-tab//button[contains(.,'Run All')]"));
            click(wait, By.cssSelector("app-run-eval-config-dialog button.save-button"));
            WebElement passed = new WebDriverWait(page, java.time.Duration.ofSeconds(120)).until(ExpectedConditions
                    .visibilityOfElementLocated(By.cssSelector("app-eval-tab .status-card__summary .status-card__passed")));
            assertEquals("1 PASS", passed.getText().trim());
            assertTrue(page.findElements(By.cssSelector("app-eval-tab .status-card__summary .status-card__failed")).isEmpty());
            ItBrowser.screenshot(page, "adk-dev-ui-eval-passed");

            // the agent changed: it lists another folder and says something else; the user asks for a closer answer
            fake.reset();
            script(ask, "fs_list", "{\"path\":\"elsewhere-" + run + "\"}", "Nothing much is there.");
            click(wait, By.xpath("//app-eval-tab//*[normalize-space()='" + set + "' and not(*)]")); // back to the set
            click(wait, By.xpath("//app-eval-tab//mat-icon[normalize-space()='list']")); // its cases
            click(wait, By.xpath("//app-eval-tab//button[contains(.,'Run All')]"));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("app-run-eval-config-dialog")));
            // the second metric's slider (response_match_score, 0.7 by default) moved up to 0.9, as a user does with the keys
            WebElement responseMatch = page.findElements(By.cssSelector("app-run-eval-config-dialog input[type=range]")).get(1);
            assertEquals("0.7", responseMatch.getAttribute("aria-valuetext"));
            // A key at a time, each awaited: once, under load, both keys went to the dialog as it opened and the slider
            // stayed at 0.7; a key that moved nothing in 5 s is pressed again, and the slider must end at 0.9 exactly.
            for (int press = 0; press < 6 && !"0.9".equals(responseMatch.getAttribute("aria-valuetext")); press++) {
                String before = responseMatch.getAttribute("aria-valuetext");
                responseMatch.sendKeys(Keys.ARROW_RIGHT);
                try {
                    new WebDriverWait(page, java.time.Duration.ofSeconds(5))
                            .until(d -> !before.equals(responseMatch.getAttribute("aria-valuetext")));
                } catch (org.openqa.selenium.TimeoutException dropped) {
                    // nothing moved: pressed again
                }
            }
            assertEquals("0.9", responseMatch.getAttribute("aria-valuetext"));
            click(wait, By.cssSelector("app-run-eval-config-dialog button.save-button"));
            WebElement failed = new WebDriverWait(page, java.time.Duration.ofSeconds(120)).until(ExpectedConditions
                    .visibilityOfElementLocated(By.cssSelector("app-eval-tab .status-card__summary .status-card__failed")));
            assertEquals("1 FAIL", failed.getText().trim());
            ItBrowser.screenshot(page, "adk-dev-ui-eval-failed-case");
            java.util.List<WebElement> runs = page.findElements(By.cssSelector("app-eval-tab .status-card__history-case"));
            assertFalse(runs.isEmpty(), "the run's cases are listed");
            runs.get(0).click();
            // the case's run: each metric's score against the threshold the user picked
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Response Match\n0.00\n/ 0.90"));
            assertTrue(page.findElement(By.tagName("body")).getText().contains("Tool Trajectory\n0.00\n/ 1.00"));
            // and the expected conversation beside the actual one
            click(wait, By.xpath("//*[normalize-space()='Compare']"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Your workspace holds a few files."));
            String compared = page.findElement(By.tagName("body")).getText();
            assertTrue(compared.contains("Expected") && compared.contains("Actual") && compared.contains("Nothing much is there."),
                    "expected against actual: " + compared);
            ItBrowser.screenshot(page, "adk-dev-ui-eval-expected-actual");
            // the actual call, opened: its arguments say how it differs
            java.util.List<WebElement> calls = page.findElements(By.xpath("//*[normalize-space()='fs_list' and not(*)]"));
            calls.get(calls.size() - 2).click();
            // the event's panel opens on the agent graph: drawn, not a broken image
            wait.until(d -> !d.findElements(By.cssSelector("app-event-tab svg, .event-graph-container svg, app-side-panel svg")).isEmpty()
                    || d.findElement(By.tagName("body")).getText().contains("following errors"));
            assertFalse(page.findElement(By.tagName("body")).getText().contains("following errors"), "the event's graph is drawn");
            ItBrowser.screenshot(page, "adk-dev-ui-eval-event-graph");
            click(wait, By.xpath("//mat-icon[normalize-space()='data_object']")); // the event as it is
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "elsewhere-" + run));
            ItBrowser.screenshot(page, "adk-dev-ui-eval-actual-call");
        } catch (RuntimeException | AssertionError e) {
            ItBrowser.screenshot(page, "adk-dev-ui-eval-failed");
            throw e;
        } finally {
            page.quit();
        }
        JsonNode latest = json(call("GET", "apps/lango/eval_results/" + json(call("GET", "apps/lango/eval_results", null)).path(0).asText(),
                null));
        assertTrue(latest.toString().contains("\"metricName\":\"response_match_score\",\"threshold\":0.9"),
                "the threshold the user picked was the run's: " + latest);
        JsonNode evalCase = json(call("GET", "apps/lango/eval_sets/" + set + "/evals/workspace_" + run, null));
        assertEquals("fs_list", evalCase.path("conversation").path(0).path("intermediateData").path("toolUses").path(0)
                .path("name").asText(), "the case the dev UI made holds the session's tool call");
        assertEquals(204, call("DELETE", "apps/lango/eval_sets/" + set, null).statusCode());
    }

    static void click(WebDriverWait wait, By element) {
        wait.until(ExpectedConditions.elementToBeClickable(element)).click();
    }

    /**
     * Types {@code text} over what a dialog's field was filled with (it fills itself a moment after it opens), the
     * field clicked first and again until it holds exactly {@code text}: once, under load, the keys went to the page
     * while the dialog still opened (everything selected, the field untouched; seen in a clean-clone run).
     */
    static void replace(WebDriverWait wait, By field, String text) {
        WebElement input = wait.until(ExpectedConditions.visibilityOfElementLocated(field));
        wait.until(d -> !input.getAttribute("value").isEmpty());
        wait.until(d -> {
            if (!text.equals(input.getAttribute("value"))) {
                input.click();
                input.sendKeys(Keys.chord(Keys.CONTROL, "a"), text);
            }
            return text.equals(input.getAttribute("value"));
        });
    }
}
