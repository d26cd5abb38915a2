package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Approval of dangerous calls on the real server, with exec enabled and the default policy: the
 * model's command waits for a person on /ws, the ADK API and A2A; approved, it runs once; denied,
 * expired or superseded, it never runs, and the model is told; another user's answer, a replay or
 * a wrong id changes nothing; every decision is in the audit list. Each command appends a line to a
 * file and prints how many lines it has, so the output counts the runs.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ApprovalIT extends FakeLlmIT {

    static final String OPERATOR = "op-approval-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    /** The deployment of these tests, and of AttackerIT's, which runs next on it. */
    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-approval.war"), "lango.auth.token=" + OPERATOR + "\n"
                + "lango.tools.exec.enabled=true\n"
                + "lango.security.approval.timeout=PT4S\n"
                + "lango.a2a.enabled=true\n");
    }

    @ArquillianResource
    URL base;

    private ItCallers callers() {
        return new ItCallers(base, OPERATOR);
    }

    private HttpResponse<String> call(String method, String path, String credential, String body) throws Exception {
        return callers().call(method, path, credential, body);
    }

    private String issue(String userId) throws Exception {
        return callers().issue(userId, false);
    }

    /** The model asks to run a command that counts its own runs in {@code file}. */
    private void enqueueCounting(String file) {
        fake.enqueue(Reply.openAiToolCall("call_" + file, "exec", "{\"command\":\"echo run >> " + file + "; wc -l < " + file + "\"}"));
    }

    private ItSocket socket(String token) throws Exception {
        return callers().socket(token);
    }

    /** Frames until the named event; returns it (its payload). */
    private static JsonNode until(ItSocket socket, String event, List<JsonNode> seen) throws InterruptedException {
        return ItCallers.until(socket, event, "c1", seen);
    }

    private static String answer(String id, String approvalId, boolean approved) {
        return ItCallers.answer(id, approvalId, approved);
    }

    /** Frames until the responses to every one of the request ids have come, by id; {@code frames} gets them all. */
    private static java.util.Map<String, JsonNode> untilResponses(ItSocket socket, List<JsonNode> frames, String... ids)
            throws InterruptedException {
        java.util.Map<String, JsonNode> responses = new java.util.HashMap<>();
        while (responses.size() < ids.length) {
            JsonNode frame = socket.next();
            frames.add(frame);
            if ("response".equals(frame.path("type").asText()) && List.of(ids).contains(frame.path("id").asText())) {
                responses.put(frame.path("id").asText(), frame);
            }
        }
        return responses;
    }

    /** The status the response to an approval.response says (frames before it skipped). */
    private static String status(ItSocket socket) throws InterruptedException {
        List<JsonNode> frames = socket.untilResponse();
        return frames.get(frames.size() - 1).path("result").path("status").asText();
    }

    private JsonNode audit(String sessionKey) throws Exception {
        HttpResponse<String> list = call("GET", "api/admin/approvals?sessionKey=" + sessionKey, OPERATOR, null);
        assertEquals(200, list.statusCode(), list.body());
        return TestJson.MAPPER.readTree(list.body()).path("approvals");
    }

    @Test
    void overWsADeniedCommandNeverRunsAndAnApprovedOneRunsOnce() throws Exception {
        String ann = "ann-" + RUN + "-ws";
        String annToken = issue(ann);
        String bobToken = issue("bob-" + RUN + "-ws");
        String session = "ws-" + RUN;
        String file = "count-" + RUN + ".txt";
        try (ItSocket annSocket = socket(annToken); ItSocket bobSocket = socket(bobToken)) {
            enqueueCounting(file);
            annSocket.send(ItSocket.chat("c1", session, "count once"));
            List<JsonNode> seen = new ArrayList<>();
            JsonNode request = until(annSocket, "approval.request", seen);
            assertEquals("exec", request.path("tool").asText());
            assertEquals("dangerous", request.path("safety").asText());
            assertTrue(request.path("args").path("command").asText().contains(file), request.toString());
            String approvalId = request.path("approvalId").asText();
            assertEquals(1, fake.requests().size(), "the turn stopped at the request: the model was not called again");

            bobSocket.send(answer("b1", approvalId, true));
            assertEquals("unknown", status(bobSocket),
                    "another user's socket cannot answer");
            fake.enqueue(Reply.openAiText("It was denied."));
            annSocket.send(answer("r1", approvalId, false));
            List<JsonNode> frames = new ArrayList<>();
            java.util.Map<String, JsonNode> responses = untilResponses(annSocket, frames, "r1", "c1");
            assertEquals("denied", responses.get("r1").path("result").path("status").asText(), frames.toString());
            assertEquals("It was denied.", responses.get("c1").path("result").path("response").asText(),
                    "the chat.message gets its one response when the turn ends: " + frames);
            JsonNode resolved = ItSocket.events(frames, "approval.resolved").get(0);
            assertEquals("denied", resolved.path("decision").asText());
            assertEquals("user", resolved.path("by").asText());
            assertTrue(fake.last().body().contains("A person denied this call"), "the model is told: " + fake.last().body());

            annSocket.send(answer("r2", approvalId, true));
            assertEquals("denied", status(annSocket), "a late answer changes nothing");

            int before = fake.requests().size();
            enqueueCounting(file);
            annSocket.send(ItSocket.chat("c1", session, "count again"));
            seen.clear();
            String second = until(annSocket, "approval.request", seen).path("approvalId").asText();
            fake.enqueue(Reply.openAiText("Counted."));
            annSocket.send(answer("r3", second, true));
            frames = new ArrayList<>();
            responses = untilResponses(annSocket, frames, "r3", "c1");
            assertEquals("approved", responses.get("r3").path("result").path("status").asText());
            assertEquals("Counted.", responses.get("c1").path("result").path("response").asText(), frames.toString());
            String toolResult = ItSocket.events(frames, "agent.tool_result").toString();
            assertTrue(toolResult.contains("1"), "the command ran, once, and the denied one never: " + toolResult);
            assertTrue(fake.last().body().contains("exitCode") || fake.last().body().contains("output"),
                    "the model got the command's result: " + fake.last().body());
            assertEquals(before + 2, fake.requests().size());

            annSocket.send(answer("r4", second, true));
            assertEquals("approved", status(annSocket));
            Thread.sleep(500);
            assertEquals(before + 2, fake.requests().size(), "a replayed approval runs nothing");
        }
        JsonNode audit = audit(session);
        assertEquals(2, audit.size(), audit.toString());
        assertEquals("approved", audit.get(0).path("decision").asText());
        assertTrue(audit.get(0).path("ran").asBoolean());
        assertEquals("denied", audit.get(1).path("decision").asText());
        assertFalse(audit.get(1).path("ran").asBoolean());
        assertEquals(ann, audit.get(1).path("userId").asText());
        HttpResponse<String> metrics = call("GET", "metrics", OPERATOR, null);
        assertTrue(metrics.body().contains("lango_approvals_total{outcome=\"denied\",tool=\"exec\"}"), metrics.body());
    }

    @Test
    void anUnansweredRequestExpiresAndANewMessageSupersedesOne() throws Exception {
        String token = issue("cy-" + RUN + "-t");
        String session = "t-" + RUN;
        try (ItSocket socket = socket(token)) {
            enqueueCounting("late-" + RUN);
            socket.send(ItSocket.chat("c1", session, "count later"));
            List<JsonNode> seen = new ArrayList<>();
            until(socket, "approval.request", seen);
            fake.enqueue(Reply.openAiText("Nobody answered."));
            JsonNode resolved = until(socket, "approval.resolved", seen);
            assertEquals("expired", resolved.path("decision").asText());
            assertEquals("timeout", resolved.path("by").asText());
            List<JsonNode> frames = socket.untilResponse();
            assertEquals("Nobody answered.", frames.get(frames.size() - 1).path("result").path("response").asText(), frames.toString());
            assertTrue(fake.last().body().contains("No one approved this call in time"), fake.last().body());

            enqueueCounting("superseded-" + RUN);
            socket.send(ItSocket.chat("c1", session, "count"));
            seen.clear();
            until(socket, "approval.request", seen);
            fake.enqueue(Reply.openAiText("Something else then."));
            socket.send(ItSocket.chat("c2", session, "never mind"));
            frames = new ArrayList<>();
            JsonNode superseded = null;
            JsonNode answered = null;
            while (answered == null) {
                JsonNode frame = socket.next();
                frames.add(frame);
                if ("c1".equals(frame.path("id").asText())) {
                    superseded = frame;
                } else if ("c2".equals(frame.path("id").asText())) {
                    answered = frame;
                }
            }
            assertEquals("approval_superseded", superseded.path("error").path("code").asText(), frames.toString());
            assertTrue(frames.stream().anyMatch(f -> "approval.resolved".equals(f.path("event").asText())
                    && "superseded".equals(f.path("payload").path("by").asText())
                    && "superseded".equals(f.path("payload").path("decision").asText())), "the card is told: " + frames);
            assertEquals("Something else then.", answered.path("result").path("response").asText());
            assertTrue(fake.last().body().contains("was superseded by this message; it did not run"), fake.last().body());
        }
    }

    @Test
    void aClientThatReconnectsSeesThePendingRequestAgain() throws Exception {
        String token = issue("dee-" + RUN + "-r");
        String session = "r-" + RUN;
        String approvalId;
        try (ItSocket socket = socket(token)) {
            enqueueCounting("reconnect-" + RUN);
            socket.send(ItSocket.chat("c1", session, "count"));
            approvalId = until(socket, "approval.request", new ArrayList<>()).path("approvalId").asText();
        }
        try (ItSocket again = ItSocket.connect(base)) {
            again.send("{\"type\":\"auth\",\"token\":\"" + token + "\"}");
            assertEquals("auth.ok", again.next().path("event").asText());
            JsonNode shown = again.next();
            assertEquals("approval.request", shown.path("event").asText(), shown.toString());
            assertEquals(approvalId, shown.path("payload").path("approvalId").asText());
            fake.enqueue(Reply.openAiText("Done after reconnecting."));
            again.send(answer("r1", approvalId, true));
            assertEquals("approved", status(again));
            until(again, "agent.done", new ArrayList<>());
            assertEquals(2, fake.requests().size());
            assertTrue(fake.last().body().contains("exitCode"), "the approved command ran and the model got its result: "
                    + fake.last().body());
        }
    }

    @Test
    void theAdkApiEndsTheRunWithAdksConfirmationCallAndResumesWithItsAnswer() throws Exception {
        String user = "eve-" + RUN + "-adk";
        String token = issue(user);
        String session = "adk-" + RUN;
        String file = "adk-" + RUN + ".txt";
        enqueueCounting(file);
        HttpResponse<String> first = call("POST", "api/run", token, TestJson.runRequest(user, session, "count via adk"));
        assertEquals(200, first.statusCode(), first.body());
        String confirmationId = null;
        for (JsonNode event : TestJson.MAPPER.readTree(first.body())) {
            for (JsonNode part : event.path("content").path("parts")) {
                if ("adk_request_confirmation".equals(part.path("functionCall").path("name").asText())) {
                    confirmationId = part.path("functionCall").path("id").asText();
                    assertEquals("exec", part.path("functionCall").path("args").path("originalFunctionCall").path("name").asText());
                }
            }
        }
        assertTrue(confirmationId != null, "the run ends with ADK's confirmation call: " + first.body());
        assertEquals(1, fake.requests().size());

        assertEquals(404, call("POST", "api/run", token, confirm(user, session, "adk-not-a-request", true)).statusCode(),
                "an answer to a request that does not exist");
        fake.enqueue(Reply.openAiText("Ran it."));
        HttpResponse<String> resumed = call("POST", "api/run", token, confirm(user, session, confirmationId, true));
        assertEquals(200, resumed.statusCode(), resumed.body());
        assertTrue(resumed.body().contains("Ran it."), resumed.body());
        assertTrue(resumed.body().contains("\"exitCode\":0") || resumed.body().contains("output"), resumed.body());
        HttpResponse<String> replay = call("POST", "api/run", token, confirm(user, session, confirmationId, true));
        assertEquals(409, replay.statusCode(), replay.body());
        assertEquals(2, fake.requests().size(), "the replay reached neither the tool nor the model");
    }

    @Test
    void aHundredPendingRequestsHoldNothing() throws Exception {
        String marker = "pending-load-" + RUN;
        // Their turns stop for approval; when they expire, the resumed turns are answered here, not from the queue.
        String told = "No one approved this call in time";
        fake.route(r -> r.body() != null && r.body().contains(marker) && r.body().contains(told),
                r -> Reply.openAiText("expired, fine"));
        fake.route(r -> r.body() != null && r.body().contains(marker) && !r.body().contains(told),
                r -> Reply.openAiToolCall("call_load", "exec", "{\"command\":\"true\"}"));
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            HttpResponse<String> asked = call("POST", "api/run", OPERATOR, TestJson.runRequest("user", "load-" + RUN + "-" + i,
                    "count " + marker));
            assertEquals(200, asked.statusCode(), asked.body());
            assertTrue(asked.body().contains("adk_request_confirmation"), asked.body());
        }
        long askedMillis = (System.nanoTime() - started) / 1_000_000;
        fake.enqueue(Reply.openAiText("Still quick."));
        long turnStarted = System.nanoTime();
        HttpResponse<String> other = call("POST", "api/run", OPERATOR, TestJson.runRequest("user", "other-" + RUN, "hello"));
        long turnMillis = (System.nanoTime() - turnStarted) / 1_000_000;
        assertEquals(200, other.statusCode(), other.body());
        assertTrue(other.body().contains("Still quick."), other.body());
        HttpResponse<String> listed = call("GET", "api/admin/approvals?limit=200", OPERATOR, null);
        assertEquals(200, listed.statusCode(), "the database answers: " + listed.body());
        assertTrue(TestJson.MAPPER.readTree(listed.body()).path("approvals").size() >= 100, "and holds the 100 requests");
        System.out.printf("100 pending approvals asked in %d ms; another session's turn then took %d ms%n", askedMillis, turnMillis);
        assertTrue(turnMillis < 5_000, "another session's turn is not held up by 100 waiting requests: " + turnMillis + " ms");
        // They expire (lango.security.approval.timeout) and their turns resume, telling the model: all of them, before the next test.
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (fake.requests().stream().filter(r -> r.body().contains(marker) && r.body().contains(told)).count() < 100) {
            assertTrue(System.nanoTime() < deadline, "the 100 requests expired and their turns resumed");
            Thread.sleep(200);
        }
        JsonNode expired = audit("load-" + RUN + "-0").get(0);
        assertEquals("expired", expired.path("decision").asText(), expired.toString());
        assertEquals("timeout", expired.path("by").asText());
        assertFalse(expired.path("ran").asBoolean());
    }

    private static String confirm(String user, String session, String confirmationId, boolean confirmed) {
        return ItCallers.confirm(user, session, confirmationId, confirmed);
    }

    @Test
    void overA2aTheTaskAsksForInputAndTheNextMessageAnswers() throws Exception {
        String token = issue("fay-" + RUN + "-a2a");
        String context = "ctx-" + RUN;
        enqueueCounting("a2a-" + RUN);
        HttpResponse<String> asked = call("POST", "api/a2a", token, a2a(context, "count over a2a"));
        JsonNode task = TestJson.MAPPER.readTree(asked.body()).path("result");
        assertEquals("task", task.path("kind").asText(), asked.body());
        assertEquals("input-required", task.path("status").path("state").asText());
        assertTrue(task.path("status").path("message").toString().contains("Approval needed: exec"), task.toString());
        fake.enqueue(Reply.openAiText("Counted over A2A."));
        HttpResponse<String> answered = call("POST", "api/a2a", token, a2a(context, "approve"));
        JsonNode done = TestJson.MAPPER.readTree(answered.body()).path("result");
        assertEquals(task.path("id").asText(), done.path("id").asText(), "an answer on the context continues its task: " + answered.body());
        assertEquals("completed", done.path("status").path("state").asText(), answered.body());
        assertTrue(done.path("artifacts").toString().contains("Counted over A2A."), done.toString());
        assertTrue(fake.last().body().contains("exitCode") || fake.last().body().contains("output"), fake.last().body());
    }

    @Test
    void anA2aAnswerRefusedByTheUsersBudgetLeavesTheRequestWaiting() throws Exception {
        String hal = "hal-" + RUN + "-a2a";
        String token = issue(hal);
        String context = "ctx-budget-" + RUN;
        enqueueCounting("a2a-budget-" + RUN);
        JsonNode task = TestJson.MAPPER.readTree(call("POST", "api/a2a", token, a2a(context, "count within a budget")).body())
                .path("result");
        assertEquals("input-required", task.path("status").path("state").asText(), task.toString());
        assertEquals(200, call("PUT", "api/admin/users/" + hal, OPERATOR, "{\"tokensPerDay\":1}").statusCode());

        HttpResponse<String> refused = call("POST", "api/a2a", token, a2a(context, "approve"));
        assertTrue(refused.body().contains("budget_exceeded"), refused.body());
        JsonNode waiting = audit("a2a-" + context).get(0);
        assertEquals("pending", waiting.path("decision").asText(), "a refused answer decides nothing: " + waiting);
        String get = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/get\",\"params\":{\"id\":\"" + task.path("id").asText() + "\"}}";
        assertEquals("input-required", TestJson.MAPPER.readTree(call("POST", "api/a2a", token, get).body())
                .at("/result/status/state").asText(), "the task still waits for the answer");

        assertEquals(200, call("PUT", "api/admin/users/" + hal, OPERATOR, "{\"tokensPerDay\":1000000}").statusCode());
        fake.enqueue(Reply.openAiText("Counted within the budget."));
        JsonNode done = TestJson.MAPPER.readTree(call("POST", "api/a2a", token, a2a(context, "approve")).body()).path("result");
        assertEquals("completed", done.path("status").path("state").asText(), done.toString());
        assertEquals("approved", audit("a2a-" + context).get(0).path("decision").asText());
    }

    @Test
    // Expiry on PostgreSQL is the 100 requests' test above; this one waits for the timeout on the embedded database only.
    @org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
    void anA2aTaskWhoseApprovalNobodyAnswersFailsSayingSo() throws Exception {
        String token = issue("gil-" + RUN + "-a2a");
        String ask = "count unanswered " + RUN;
        String file = "a2a-expired-" + RUN;
        fake.route(r -> r.body().contains(ask), r -> r.body().contains("\"role\":\"tool\"") ? Reply.openAiText("It did not run.")
                : Reply.openAiToolCall("call_" + file, "exec", "{\"command\":\"echo run >> " + file + "\"}"));
        JsonNode task = TestJson.MAPPER.readTree(call("POST", "api/a2a", token, a2a("ctx-expired-" + RUN, ask)).body()).path("result");
        assertEquals("input-required", task.path("status").path("state").asText(), task.toString());
        String get = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/get\",\"params\":{\"id\":\"" + task.path("id").asText() + "\"}}";
        long deadline = System.nanoTime() + 30_000_000_000L;
        JsonNode now;
        do {
            Thread.sleep(500);
            now = TestJson.MAPPER.readTree(call("POST", "api/a2a", token, get).body()).path("result");
        } while (!"failed".equals(now.path("status").path("state").asText()) && System.nanoTime() < deadline);
        assertEquals("failed", now.path("status").path("state").asText(), "expired after lango.security.approval.timeout: " + now);
        assertTrue(now.path("status").toString().contains("in time; the call did not run"), now.toString());
        // The expired turn resumes and tells the model: that call must reach this test's model, not the next test's.
        while (fake.requests().stream().noneMatch(r -> r.body().contains(ask) && r.body().contains("\"role\":\"tool\""))) {
            assertTrue(System.nanoTime() < deadline, "the expired turn resumed and told the model");
            Thread.sleep(200);
        }
    }

    private static String a2a(String context, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"message/send\",\"params\":{\"message\":{\"role\":\"user\","
                + "\"kind\":\"message\",\"messageId\":\"" + UUID.randomUUID() + "\",\"contextId\":\"" + context
                + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}}}";
    }
}
