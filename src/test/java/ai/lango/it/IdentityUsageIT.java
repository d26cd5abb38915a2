package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * What model calls cost, per user, on the real server (IdentityIT's deployment, shared: its users by token): every
 * call's tokens as the fake model reports them, stored with user, session, agent and model and priced; a model
 * that reports none estimated and marked; a user's budget refuses their next turn on every edge before the model
 * is called, and ends a turn that crosses it at its next model call, its work kept.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class IdentityUsageIT extends FakeLlmIT {

    private static final String OPERATOR = "op-it-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return IdentityIT.deployment();
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String credential, String body) throws Exception {
        return new ItCallers(base, OPERATOR).call(method, path, credential, body);
    }

    private String issue(String userId) throws Exception {
        return new ItCallers(base, OPERATOR).issue(userId, false);
    }

    private HttpResponse<String> run(String token, String user, String session, String text) throws Exception {
        return call("POST", "api/run", token, TestJson.runRequest(user, session, text));
    }

    private JsonNode usage(String token, String query) throws Exception {
        HttpResponse<String> usage = call("GET", "api/usage" + query, token, null);
        assertEquals(200, usage.statusCode(), usage.body());
        return TestJson.MAPPER.readTree(usage.body());
    }

    @Test
    void everyModelCallsTokensAreStoredPerUserSessionAgentAndModelAndPriced() throws Exception {
        String ann = "ann-" + RUN + "-usage";
        String token = issue(ann);
        fake.enqueue(Reply.openAiToolCall("call_u1", "fs_list", "{\"path\":\".\"}"))
                .enqueue(Reply.sse(OpenAi.textFrames(40, 5, 30, "Listed.")));
        assertEquals(200, run(token, ann, "s-usage", "list my files").statusCode());

        JsonNode mine = usage(token, "?sessionKey=s-usage");
        JsonNode totals = mine.path("totals");
        assertEquals(60, totals.path("inputTokens").asLong(), mine.toString()); // 20 + 40, as the fake model reported
        assertEquals(14, totals.path("outputTokens").asLong()); // 9 + 5
        assertEquals(30, totals.path("cachedTokens").asLong());
        assertEquals(2, totals.path("calls").asLong());
        assertEquals(0, totals.path("estimatedCalls").asLong());
        // gpt-4o-mini: 0.15 per million input (0.075 cached), 0.60 output: (30 × 0.15 + 30 × 0.075 + 14 × 0.60) / 10⁶
        assertEquals(0, new BigDecimal("0.00001515").compareTo(new BigDecimal(totals.path("costUsd").asText())), mine.toString());
        assertEquals("gpt-4o-mini", mine.at("/byModel/0/model").asText());
        assertEquals("s-usage", mine.at("/bySession/0/sessionKey").asText());
        assertEquals(1, mine.path("byDay").size());

        JsonNode all = TestJson.MAPPER.readTree(call("GET", "api/admin/usage?userId=" + ann, OPERATOR, null).body());
        assertEquals("lango-agent", all.at("/byAgent/0/agent").asText(), all.toString());
        assertEquals("agent", all.at("/byPurpose/0/purpose").asText());
        assertEquals(ann, all.at("/byUser/0/userId").asText());
        assertEquals(403, call("GET", "api/admin/usage", token, null).statusCode(), "a user reads only their own");
        assertEquals(0, usage(issue("bea-" + RUN + "-usage"), "").path("totals").path("calls").asLong(), "another user spent nothing");
    }

    @Test
    void aModelThatReportsNoUsageIsEstimatedAndSaysSo() throws Exception {
        String cid = "cid-" + RUN + "-usage";
        String token = issue(cid);
        fake.enqueue(Reply.sse(OpenAi.textFrames(-1, 0, 0, "An answer of some length, with no usage reported.")));
        assertEquals(200, run(token, cid, "s-estimated", "tell me something").statusCode());
        JsonNode totals = usage(token, "").path("totals");
        assertEquals(1, totals.path("estimatedCalls").asLong(), totals.toString());
        assertTrue(totals.path("inputTokens").asLong() > 0 && totals.path("outputTokens").asLong() > 0, totals.toString());
    }

    @Test
    void aUserPastTheirBudgetIsRefusedOnEveryEdgeBeforeTheModelIsCalled() throws Exception {
        String dan = "dan-" + RUN + "-usage";
        String token = issue(dan);
        HttpResponse<String> set = call("PUT", "api/admin/users/" + dan, OPERATOR, "{\"tokensPerDay\":60}");
        assertEquals(200, set.statusCode(), set.body());
        fake.enqueue(Reply.sse(OpenAi.textFrames(50, 20, 0, "That was expensive.")));
        assertEquals(200, run(token, dan, "s-budget", "spend").statusCode());
        int asked = fake.requests().size();

        HttpResponse<String> refused = run(token, dan, "s-budget", "spend more");
        assertEquals(429, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("\"budget_exceeded\"") && refused.body().contains("70 tokens")
                && refused.body().contains("60 tokens"), refused.body());
        assertTrue(refused.headers().firstValue("Retry-After").isPresent(), "says when it resets");

        try (ItSocket socket = ItSocket.connect(base)) {
            socket.send("{\"type\":\"auth\",\"token\":\"" + token + "\"}");
            socket.next();
            socket.send(ItSocket.chat("b1", "s-budget", "over /ws"));
            List<JsonNode> frames = socket.untilResponse();
            assertEquals("budget_exceeded", frames.get(frames.size() - 1).at("/error/code").asText(), frames.toString());
        }
        JsonNode a2a = TestJson.MAPPER.readTree(call("POST", "api/a2a", token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                + "\"SendMessage\",\"params\":{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m\",\"parts\":[{\"text\":\"over A2A\"}]}}}")
                .body());
        assertTrue(a2a.toString().contains("budget_exceeded"), a2a.toString());
        assertTrue(mcpChat(token, "over MCP").contains("budget_exceeded"), "MCP's chat says so");
        assertEquals(asked, fake.requests().size(), "the model was not called again");

        JsonNode budget = usage(token, "").path("budget");
        assertEquals(60, budget.path("tokensPerDay").asLong(), budget.toString());
        assertEquals(70, budget.path("tokensToday").asLong());
    }

    @Test
    void aTurnThatCrossesItsBudgetEndsAtItsNextModelCallWithItsWorkKept() throws Exception {
        String eve = "eve-" + RUN + "-usage";
        String token = issue(eve);
        assertEquals(200, call("PUT", "api/admin/users/" + eve, OPERATOR, "{\"tokensPerDay\":50}").statusCode());
        fake.enqueue(Reply.openAiToolCall("call_e1", "fs_list", "{\"path\":\".\"}"))   // 29 tokens
                .enqueue(Reply.openAiToolCall("call_e2", "fs_list", "{\"path\":\".\"}"))   // 58: past 50
                .enqueue(Reply.openAiText("never asked"));
        HttpResponse<String> cut = run(token, eve, "s-cross", "keep listing");
        assertEquals(429, cut.statusCode(), cut.body());
        assertTrue(cut.body().contains("budget_exceeded"), cut.body());
        assertEquals(2, fake.requests().size(), "the third model call did not happen");
        String stored = call("GET", "api/apps/lango/users/" + eve + "/sessions/s-cross", token, null).body();
        assertTrue(stored.contains("call_e2") && stored.contains("functionResponse"), "the work so far is kept: " + stored);
    }

    @Test
    void anEvalRunAsksTheJudgeOnlyWithinTheUsersBudgetAndNeverAboutAFailedTurn() throws Exception {
        String ivy = "ivy-" + RUN + "-usage";
        String token = issue(ivy);
        assertEquals(200, call("PUT", "api/admin/users/" + ivy, OPERATOR, "{\"tokensPerDay\":100}").statusCode());
        String ask = "how many legs has a spider " + RUN;
        List<String> judged = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the judge's request holds the question too: its route comes first
        fake.route(r -> r.body() != null && r.body().contains("is_the_agent_response_valid") && r.body().contains(RUN), r -> {
            judged.add(r.body());
            return Reply.sse(OpenAi.textFrames(50, 20, 0, "{\"reasoning\": \"same\", \"is_the_agent_response_valid\": \"valid\"}"));
        });
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.sse(OpenAi.textFrames(30, 10, 0, "Eight legs.")));
        String set = "legs_" + RUN;
        assertEquals(200, call("PUT", "api/eval/sets/" + set, token, "[{\"query\":\"" + ask + "\",\"reference\":\"Eight legs.\"}]")
                .statusCode());
        String judge = "\"evalMetrics\":[{\"metricName\":\"final_response_match_v2\",\"threshold\":0.5}]"; // 5 samples a turn

        HttpResponse<String> first = call("POST", "api/eval/sets/" + set + "/run", token, "{" + judge + "}");
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(1, judged.size(), "the turn (40 tokens) and the first judge call (70) spent the budget of 100: no second call");
        JsonNode byPurpose = TestJson.MAPPER.readTree(call("GET", "api/admin/usage?userId=" + ivy, OPERATOR, null).body()).path("byPurpose");
        assertTrue(byPurpose.toString().contains("\"purpose\":\"eval\""), "the judge's call is the user's: " + byPurpose);

        int asked = fake.requests().size();
        HttpResponse<String> refused = call("POST", "api/eval/sets/" + set + "/run", token, "{\"numRuns\":10," + judge + "}");
        assertEquals(200, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("budget") && refused.body().contains("\"status\":\"failed\""), refused.body());
        assertEquals(asked, fake.requests().size(), "ten refused replays: neither the agent nor the judge was asked");
        assertEquals(204, call("DELETE", "api/apps/lango/eval_sets/" + set, token, null).statusCode());
    }

    @Test
    void aBudgetSetForOneUserLiftsOrKeepsTheirLimitAndUsageCountsAtMetrics() throws Exception {
        String fay = "fay-" + RUN + "-usage";
        String token = issue(fay);
        assertEquals(400, call("PUT", "api/admin/users/" + fay, OPERATOR, "{\"costPerDay\":\"much\"}").statusCode());
        JsonNode set = TestJson.MAPPER.readTree(call("PUT", "api/admin/users/" + fay, OPERATOR,
                "{\"tokensPerDay\":1000,\"costPerDay\":\"0.50\"}").body());
        assertEquals(1000, set.at("/budget/tokensPerDay").asLong(), set.toString());
        assertEquals("0.5", set.at("/budget/costPerDay").asText());
        assertTrue(set.at("/budget/costPerMonth").isNull(), "unset: the setting's");
        JsonNode listed = TestJson.MAPPER.readTree(call("GET", "api/admin/users", OPERATOR, null).body());
        assertTrue(listed.toString().contains("\"userId\":\"" + fay + "\",\"admin\":false"), listed.toString());

        fake.enqueue(Reply.openAiText("Counted."));
        assertEquals(200, run(token, fay, "s-metrics", "count me").statusCode());
        String metrics = call("GET", "metrics", OPERATOR, null).body();
        assertTrue(metrics.contains("lango_usage_tokens_total{model=\"gpt-4o-mini\",provider=\"openai\",purpose=\"agent\",type=\"input\"}"),
                metrics.lines().filter(l -> l.contains("usage")).toList().toString());
        assertFalse(metrics.contains(fay), "no user in a label");
        JsonNode config = TestJson.MAPPER.readTree(call("GET", "api/admin/config", OPERATOR, null).body());
        assertEquals("0.15", config.at("/lango.pricing/gpt-4o-mini/input").asText(), "the prices in force are listed");
    }

    @Test
    void mcpAnswersOnlyACredentialAndAnMcpSessionIsItsUsersAlone() throws Exception {
        HttpResponse<String> anonymous = mcp(null, null, MCP_INITIALIZE);
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), anonymous.headers().toString());

        String gil = issue("gil-" + RUN + "-mcp");
        String hal = issue("hal-" + RUN + "-mcp");
        String gilsSession = mcp(gil, null, MCP_INITIALIZE).headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> taken = mcp(hal, gilsSession, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"list_sessions\",\"arguments\":{}}}");
        assertEquals(404, taken.statusCode(), "another user's MCP session is as unknown as a made-up one: " + taken.body());
    }

    private static final String MCP_INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";

    /** One JSON-RPC message to /mcp with {@code token} (none when null), in {@code session} when not null. */
    private HttpResponse<String> mcp(String token, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What /mcp's chat tool answers the user (a new MCP session each time). */
    private String mcpChat(String token, String message) throws Exception {
        HttpResponse<String> started = mcp(token, null, MCP_INITIALIZE);
        assertEquals(200, started.statusCode(), started.body());
        String session = started.headers().firstValue("Mcp-Session-Id").orElseThrow();
        return mcp(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"chat\",\"arguments\":{\"message\":\"" + message + "\"}}}").body();
    }
}
