package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Who runs an approved call, as the bug was found (an approved call sometimes ran as somebody else: the continuation
 * after the approval did not always see its caller): on /ws, ADK's API, A2A and /mcp, at once and beside other turns,
 * {@value #ROUNDS} approved continuations each of a call that uses a shared secret its caller may use — every one runs
 * as its caller; a user's continuations with a secret bound to them run as that user; and a user's approved call with
 * a secret only administrators may use is refused, every time: it never runs as an administrator.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class ApprovedIdentityIT extends FakeLlmIT {

    static final int ROUNDS = Integer.getInteger("it.identity.rounds", 50);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** A round's words: which secret its call uses, on which edge, which round. */
    private static final Pattern ASK = Pattern.compile("use (\\S+) on (\\S+) round (\\d+) " + RUN);

    /**
     * ApprovalIT's server, but a person takes as long as they like (under load a round must not run out of time) and a
     * user's turns are not limited in number (four edges at once are more than the default four turns of one user).
     */
    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-identity-approval.war"), "lango.auth.token=" + ApprovalIT.OPERATOR
                + "\nlango.tools.exec.enabled=true\nlango.security.approval.timeout=PT10M\nlango.a2a.enabled=true\n"
                + "lango.quota.concurrent-turns=0\nlango.quota.requests-per-minute=0\n");
    }

    @ArquillianResource
    URL base;

    private ItCallers callers() {
        return new ItCallers(base, ApprovalIT.OPERATOR);
    }

    private enum Edge { WS, ADK, A2A, MCP }

    /** The model of every round: asks for exec with the round's secret, then says it is done once it has the result. */
    private void model() {
        fake.route(r -> ASK.matcher(r.body()).find(), r -> {
            Matcher ask = ASK.matcher(r.body());
            String call = null;
            String secret = null;
            while (ask.find()) { // the round's own words (its session holds no other round)
                call = "call_" + ask.group(2) + "_" + ask.group(3) + "_" + ask.group(1);
                secret = ask.group(1);
            }
            // the secret, and whose workspace the command runs in: the caller's
            return r.body().contains("\"tool_call_id\":\"" + call + "\"") ? Reply.openAiText("Done.")
                    : Reply.openAiToolCall(call, "exec", "{\"command\":\"echo {{secret:" + secret + "}}; pwd\"}");
        });
    }

    /** What the exec call of {@code edge}'s round {@code n} with {@code secret} answered, as the model was sent it. */
    private String result(String secret, Edge edge, int n) {
        String call = "call_" + edge + "_" + n + "_" + secret;
        for (FakeLlmServer.Recorded request : fake.requests()) {
            JsonNode body;
            try {
                body = TestJson.MAPPER.readTree(request.body());
            } catch (Exception e) {
                continue;
            }
            for (JsonNode message : body.path("messages")) {
                if (call.equals(message.path("tool_call_id").asText())) {
                    return message.path("content").asText();
                }
            }
        }
        throw new AssertionError("the call " + call + " never answered the model");
    }

    private void storeSecret(String name, String value, String users) throws Exception {
        HttpResponse<String> stored = callers().call("PUT", "api/admin/secrets/" + name, ApprovalIT.OPERATOR,
                "{\"value\":\"" + value + "\",\"tools\":[\"exec\"]" + (users == null ? "" : ",\"users\":[\"" + users + "\"]") + "}");
        assertTrue(stored.statusCode() == 201 || stored.statusCode() == 200, stored.body());
    }

    /** One approved continuation of {@code user}'s call with {@code secret} on {@code edge}, round {@code n}. */
    private void approvedCall(Edge edge, String token, String user, String secret, int n) throws Exception {
        String ask = "use " + secret + " on " + edge + " round " + n + " " + RUN;
        String session = "identity-" + edge + "-" + n + "-" + RUN;
        switch (edge) {
            case WS -> {
                try (ItSocket socket = callers().socket(token)) {
                    socket.send(ItSocket.chat("c1", session, ask));
                    List<JsonNode> seen = new ArrayList<>();
                    JsonNode request;
                    do { // this round's request (a socket is shown its user's requests still waiting when it connects)
                        request = ItCallers.until(socket, "approval.request", "c1", seen);
                    } while (!session.equals(request.path("sessionKey").asText()));
                    // answered the moment it is asked, racing the end of the turn that asked
                    socket.send(ItCallers.answer("r1", request.path("approvalId").asText(), true));
                    JsonNode answered;
                    do {
                        answered = socket.next();
                        seen.add(answered);
                    } while (!("response".equals(answered.path("type").asText()) && "r1".equals(answered.path("id").asText())));
                    assertEquals("approved", answered.path("result").path("status").asText(), answered.toString());
                    JsonNode frame;
                    do {
                        try {
                            frame = socket.next();
                        } catch (AssertionError silent) {
                            throw new AssertionError(silent.getMessage() + " after " + seen, silent);
                        }
                        seen.add(frame);
                    } while (!("response".equals(frame.path("type").asText()) && "c1".equals(frame.path("id").asText())));
                    assertTrue(frame.path("error").isMissingNode(), frame.toString());
                }
            }
            case ADK -> {
                HttpResponse<String> asked = callers().call("POST", "api/run", token, TestJson.runRequest(user, session, ask));
                assertEquals(200, asked.statusCode(), asked.body());
                String confirmation = ItCallers.confirmationId(asked.body());
                assertNotNull(confirmation, asked.body());
                HttpResponse<String> resumed = callers().call("POST", "api/run", token, ItCallers.confirm(user, session, confirmation, true));
                assertEquals(200, resumed.statusCode(), resumed.body());
            }
            case A2A -> {
                JsonNode task = TestJson.MAPPER.readTree(callers().call("POST", "api/a2a", token, a2a(session, ask)).body()).path("result");
                assertEquals("input-required", task.path("status").path("state").asText(), task.toString());
                JsonNode done = TestJson.MAPPER.readTree(callers().call("POST", "api/a2a", token, a2a(session, "approve")).body())
                        .path("result");
                assertEquals("completed", done.path("status").path("state").asText(), done.toString());
            }
            case MCP -> {
                HttpResponse<String> opened = mcp(token, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
                String mcpSession = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
                JsonNode chat = TestJson.MAPPER.readTree(mcp(token, mcpSession, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"chat\",\"arguments\":{\"message\":\"" + ask + "\",\"sessionId\":\"" + session + "\"}}}")
                        .body());
                String approvalId = chat.at("/result/structuredContent/waitingForApproval/0/approvalId").asText();
                assertTrue(!approvalId.isEmpty(), chat.toString());
                JsonNode answered = TestJson.MAPPER.readTree(mcp(token, mcpSession, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"answer_approval\",\"arguments\":{\"approvalId\":\"" + approvalId + "\",\"approved\":true}}}")
                        .body());
                assertTrue(!answered.at("/result/isError").asBoolean(false), answered.toString());
            }
        }
    }

    private static String a2a(String context, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"message/send\",\"params\":{\"message\":{\"role\":\"user\","
                + "\"kind\":\"message\",\"messageId\":\"" + UUID.randomUUID() + "\",\"contextId\":\"" + context
                + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}}}";
    }

    private HttpResponse<String> mcp(String token, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Every edge at once, {@value #ROUNDS} rounds each, beside a stream of other turns: each round's call answered by
     * {@code check} (what the exec call answered the model).
     */
    private void everyEdgeAtOnce(String token, String user, String secret, java.util.function.Consumer<String> check)
            throws Exception {
        model();
        AtomicBoolean loaded = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(Edge.values().length + 1);
        try {
            // other turns running meanwhile: plain answers of another user, one after another
            String busy = "busy " + RUN;
            fake.route(FakeLlmServer.lastUserMessageContains(busy), r -> Reply.openAiText("Busy."));
            pool.submit(() -> {
                int i = 0;
                while (loaded.get()) {
                    try {
                        callers().call("POST", "api/run", ApprovalIT.OPERATOR, TestJson.runRequest("user", "busy-" + (i++ % 8) + "-" + RUN,
                                busy));
                    } catch (Exception e) {
                        return null;
                    }
                }
                return null;
            });
            List<Future<Void>> edges = new ArrayList<>();
            for (Edge edge : Edge.values()) {
                edges.add(pool.submit(() -> {
                    for (int n = 0; n < ROUNDS; n++) {
                        try {
                            approvedCall(edge, token, user, secret, n);
                            check.accept(result(secret, edge, n));
                        } catch (AssertionError e) {
                            throw new AssertionError(edge + " round " + n + ": " + e.getMessage(), e);
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> edge : edges) {
                edge.get();
            }
        } finally {
            loaded.set(false);
            pool.shutdown();
            pool.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS); // no turn of this test outlives it
        }
    }

    @Test
    void theOperatorsApprovedCallsRunAsTheOperatorOnEveryEdge() throws Exception {
        String secret = "ADMINS_" + RUN;
        storeSecret(secret, "admins-only-value-" + RUN, null);
        everyEdgeAtOnce(ApprovalIT.OPERATOR, "user", secret, result -> {
            assertTrue(result.contains("[SECRET:" + secret + "]") && result.contains("\"exitCode\":0"),
                    "the call ran as the operator, with a secret only administrators may use: " + result);
            assertTrue(!result.contains("/users/") || result.contains("/users/" + ai.lango.security.Identity.OPERATOR_A2A_USER + "\\n"),
                    "in the operator's workspace (its A2A contexts' own): " + result);
        });
    }

    @Test
    void aUsersApprovedCallsRunAsThatUserAndNeverAsAnAdministrator() throws Exception {
        String ann = "ann-" + RUN + "-identity";
        String token = callers().issue(ann, false);
        String team = "TEAM_" + RUN;
        storeSecret(team, "team-shared-value-" + RUN, ann);
        everyEdgeAtOnce(token, ann, team, result -> {
            assertTrue(result.contains("[SECRET:" + team + "]") && result.contains("\"exitCode\":0"),
                    "the call ran as " + ann + ", with the secret bound to them: " + result);
            assertTrue(result.contains("/users/" + ann), "in " + ann + "'s own workspace, never an administrator's: " + result);
        });
    }
}
