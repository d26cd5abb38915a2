package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Multi-agent mode on the real server, driven through /ws, with the fake model scripting the
 * orchestrator's and the sub-agents' answers in turn.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class MultiAgentIT extends FakeLlmIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    /** One round, so the ping-pong stays inside the IT server's turn limit of 3 (every transfer is a function call). */
    static final int MAX_ROUNDS = 1;

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-multi.war"),
                "lango.agent.multi-agent=true\nlango.agent.max-delegation-rounds=" + MAX_ROUNDS + "\n");
    }

    @ArquillianResource
    URL base;

    private ItSocket client;

    @BeforeEach
    void connect() throws Exception {
        client = ItSocket.connect(base);
    }

    @AfterEach
    void close() {
        client.close();
    }

    private static Reply transfer(String agent) {
        return Reply.openAiToolCall("call_" + UUID.randomUUID().toString().substring(0, 8), "transfer_to_agent",
                "{\"agent_name\":\"" + agent + "\"}");
    }

    private static List<String> offeredTools(FakeLlmServer.Recorded request) {
        List<String> names = new ArrayList<>();
        request.json().path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
        return names;
    }

    private static String systemPrompt(FakeLlmServer.Recorded request) {
        return request.json().path("messages").get(0).path("content").asText();
    }

    private List<JsonNode> chat(String key, String message) throws InterruptedException {
        client.send(ItSocket.chat("m-" + UUID.randomUUID(), key, message));
        return client.untilResponse();
    }

    private static String answer(List<JsonNode> frames) {
        JsonNode response = frames.get(frames.size() - 1);
        assertTrue(response.path("error").isMissingNode(), response.toString());
        return response.path("result").path("response").asText();
    }

    @Test
    void subAgentsAnswerStreamsToTheClientAsItsModelWritesIt() throws Exception {
        String key = "multi-stream-" + UUID.randomUUID();
        FakeLlmServer.PacedText answer = FakeLlmServer.PacedText.openAi(StreamingIT.GAP, StreamingIT.CHUNKS);
        fake.enqueue(transfer("planner")).enqueue(answer);

        client.send(ItSocket.chat("ms-1", key, "plan my week"));
        List<Long> arrivals = new ArrayList<>();
        List<String> received = new ArrayList<>();
        JsonNode frame;
        do {
            frame = client.next();
            if ("agent.chunk".equals(frame.path("event").asText())) {
                arrivals.add(System.nanoTime());
                received.add(frame.path("payload").path("chunk").asText());
            }
        } while (!"response".equals(frame.path("type").asText()));

        assertEquals(String.join("", StreamingIT.CHUNKS), frame.path("result").path("response").asText());
        StreamingIT.assertFollowsTheModel(answer.sentNanos(), arrivals, received);
    }

    @Test
    void requestNeedingAToolIsDelegatedToTheExecutorWhichRunsIt() throws Exception {
        String key = "multi-" + UUID.randomUUID();
        String file = "multi/" + key + ".txt";
        fake.enqueue(transfer("executor"))
                .enqueue(Reply.openAiToolCall("call_w1", "fs_write", "{\"path\":\"" + file + "\",\"content\":\"hello\"}"))
                .enqueue(Reply.openAiText("Wrote ", "the file."));

        List<JsonNode> frames = chat(key, "write hello to a file");

        assertEquals("Wrote the file.", answer(frames));
        List<FakeLlmServer.Recorded> requests = fake.requests();
        assertEquals(List.of("transfer_to_agent"), offeredTools(requests.get(0)), "the orchestrator has no tools of its own");
        assertTrue(systemPrompt(requests.get(0)).contains("NEVER invent or abbreviate agent names"));
        assertTrue(offeredTools(requests.get(1)).containsAll(List.of("fs_write", "fs_read")), "the executor has the file tools");
        JsonNode delegation = ItSocket.events(frames, "agent.delegation").get(0);
        assertEquals("lango-orchestrator", delegation.path("from").asText());
        assertEquals("executor", delegation.path("to").asText());
        JsonNode toolCall = ItSocket.events(frames, "agent.tool_call").stream()
                .filter(c -> c.path("name").asText().equals("fs_write")).findFirst().orElseThrow();
        assertEquals("executor", toolCall.path("agent").asText());
        assertEquals("hello", Files.readString(ItWorkspace.dir().resolve(file)));
    }

    @Test
    void aSubAgentsDangerousCallWaitsForAPersonAndRunsInThatAgentOnceApproved() throws Exception {
        String key = "multi-approve-" + UUID.randomUUID();
        String file = "multi/" + key + ".txt";
        Files.createDirectories(ItWorkspace.dir().resolve("multi"));
        Files.writeString(ItWorkspace.dir().resolve(file), "old");
        // With a team, ADK calls the sub-agent's model once more after the request (the single agent's run stops
        // there): it reads that the call waits for approval and says so.
        fake.enqueue(transfer("executor"))
                .enqueue(Reply.openAiToolCall("call_d", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Waiting for your approval."));
        client.send(ItSocket.chat("ma-1", key, "delete the old file"));
        JsonNode request;
        while (true) {
            JsonNode frame = client.next();
            assertFalse("response".equals(frame.path("type").asText()), "answered before asking: " + frame);
            if ("approval.request".equals(frame.path("event").asText())) {
                request = frame.path("payload");
                break;
            }
        }
        assertEquals("executor", request.path("agent").asText(), "the sub-agent's call asks, through the same gate");
        assertTrue(Files.exists(ItWorkspace.dir().resolve(file)), "nothing ran before the answer");
        fake.enqueue(Reply.openAiText("Deleted by the executor."));
        client.send("{\"type\":\"request\",\"id\":\"ma-2\",\"method\":\"approval.response\",\"params\":{\"approvalId\":\""
                + request.path("approvalId").asText() + "\",\"approved\":true}}");
        String answer = null;
        while (answer == null) {
            JsonNode frame = client.next();
            if ("response".equals(frame.path("type").asText()) && "ma-1".equals(frame.path("id").asText())) {
                answer = frame.path("result").path("response").asText(frame.toString());
            }
        }
        assertEquals("Deleted by the executor.", answer, fake.requests().stream().map(r -> systemPrompt(r).substring(0, 80)
                + " | " + r.body().substring(Math.max(0, r.body().length() - 300))).toList().toString());
        assertFalse(Files.exists(ItWorkspace.dir().resolve(file)), "the approved delete ran");
    }

    @Test
    void transferToAHallucinatedAgentIsCorrectedAndThenSucceeds() throws Exception {
        fake.enqueue(transfer("exec"))
                .enqueue(transfer("executor"))
                .enqueue(Reply.openAiText("Done by the executor."));

        List<JsonNode> frames = chat("multi-" + UUID.randomUUID(), "run the task");

        assertEquals("Done by the executor.", answer(frames));
        String retried = fake.requests().get(1).body();
        assertTrue(retried.contains("[System: Agent \\\"exec\\\" does not exist. Valid agents: executor, researcher, planner."
                + " Please retry using one of the valid agent names listed above.]"), retried);
        assertTrue(retried.contains("Agent not found: exec"), "the refused transfer is answered, never a success");
    }

    @Test
    void roundLimitEndsAPingPongBetweenAgentsWithAnAnswer() throws Exception {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            fake.enqueue(transfer("executor")).enqueue(transfer("lango-orchestrator"));
        }
        fake.enqueue(transfer("executor")).enqueue(Reply.openAiText("Here is what I have."));

        List<JsonNode> frames = chat("multi-" + UUID.randomUUID(), "keep going");

        assertEquals("Here is what I have.", answer(frames));
        List<FakeLlmServer.Recorded> requests = fake.requests();
        assertEquals(2 * MAX_ROUNDS + 2, requests.size());
        assertTrue(requests.get(requests.size() - 1).body().contains("delegation round limit (" + MAX_ROUNDS + ") is reached"));
    }

    @Test
    void adminShowsTheAgentTree() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(base + "api/admin/agents")).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode root = JSON.readTree(response.body()).path("root");
        assertEquals("lango-orchestrator", root.path("name").asText());
        assertEquals(0, root.path("tools").size());
        List<String> subAgents = new ArrayList<>();
        root.path("subAgents").forEach(s -> subAgents.add(s.path("name").asText()));
        // Knowledge and learning are on by default with a model: their tools make the researcher.
        assertEquals(List.of("executor", "researcher", "planner"), subAgents);
        assertTrue(root.path("subAgents").get(0).path("tools").toString().contains("fs_write"));
        assertTrue(root.path("subAgents").get(1).path("tools").toString().contains("save_learning"));
    }

    /** An eval case recorded in multi-agent mode checks which agent the turn was handed to, beside the tool calls. */
    @Test
    void anEvalCaseChecksTheDelegation() throws Exception {
        String set = "delegation_" + UUID.randomUUID().toString().substring(0, 8);
        String caseJson = "{\"eval_set_id\":\"" + set + "\",\"eval_cases\":[{\"eval_id\":\"list\",\"conversation\":[{"
                + "\"user_content\":\"list my files\",\"delegations\":[\"executor\"],"
                + "\"intermediate_data\":{\"tool_uses\":[{\"name\":\"fs_list\",\"args\":{\"path\":\".\"}}]},"
                + "\"final_response\":{\"parts\":[{\"text\":\"Nothing there yet.\"}]}}]}]}";
        HttpClient http = HttpClient.newHttpClient();
        assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base + "api/eval/sets/" + set))
                .PUT(HttpRequest.BodyPublishers.ofString(caseJson)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        String metrics = "{\"evalMetrics\":[{\"metricName\":\"delegation_match\",\"threshold\":1},"
                + "{\"metricName\":\"tool_trajectory_avg_score\",\"criterion\":{\"threshold\":1,\"matchType\":\"IN_ORDER\"}}]}";

        fake.enqueue(transfer("executor")).enqueue(Reply.openAiToolCall("call_l1", "fs_list", "{\"path\":\".\"}"))
                .enqueue(Reply.openAiText("Nothing there yet."));
        JsonNode passed = runEval(http, set, metrics);
        assertEquals(1, passed.path("finalEvalStatus").asInt(), passed.toPrettyString());
        assertEquals("[\"executor\"]", passed.path("evalMetricResultPerInvocation").path(0).path("actualInvocation")
                .path("delegations").toString());

        fake.enqueue(transfer("planner")).enqueue(Reply.openAiText("Nothing there yet."));
        JsonNode failed = runEval(http, set, metrics);
        assertEquals(2, failed.path("finalEvalStatus").asInt());
        assertEquals("[\"planner\"]", failed.path("evalMetricResultPerInvocation").path(0).path("actualInvocation")
                .path("delegations").toString());
        assertEquals(0.0, failed.path("overallEvalMetricResults").path(0).path("score").asDouble(), "delegation_match");
    }

    private JsonNode runEval(HttpClient http, String set, String metrics) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "api/apps/lango/eval_sets/" + set + "/run_eval"))
                .POST(HttpRequest.BodyPublishers.ofString(metrics)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body()).path(0);
    }
}
