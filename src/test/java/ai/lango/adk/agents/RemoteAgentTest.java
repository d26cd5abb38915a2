package ai.lango.adk.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.a2a.A2aClient;
import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.ScriptedLlm;
import ai.lango.fake.TestJson;
import ai.lango.prompt.PromptBuilder;
import ai.lango.turn.LearnedFixes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.agents.BaseAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Remote A2A agents as sub-agents, against an A2A agent on loopback. */
class RemoteAgentTest {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private static final A2aClient CLIENT = new A2aClient(Duration.ofSeconds(5));

    private HttpServer remote;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startRemote() throws Exception {
        remote = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        remote.createContext("/.well-known/agent.json", exchange -> reply(exchange, """
                {"name":"weather","description":"Tells the weather","url":"/rpc","version":"1","protocolVersion":"0.3.0",
                 "preferredTransport":"JSONRPC","capabilities":{},"defaultInputModes":["text/plain"],
                 "defaultOutputModes":["text/plain"],"skills":[]}"""));
        remote.createContext("/rpc", exchange -> {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            received.add(request);
            reply(exchange, JSON.createObjectNode().put("jsonrpc", "2.0").set("id", request.path("id"))
                    .toString().replace("}", ",\"result\":{\"kind\":\"message\",\"role\":\"agent\",\"messageId\":\"m1\","
                            + "\"parts\":[{\"kind\":\"text\",\"text\":\"Sunny in Seoul.\"}]}}"));
        });
        remote.start();
    }

    private static void reply(com.sun.net.httpserver.HttpExchange exchange, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterEach
    void stopRemote() {
        remote.stop(0);
    }

    private URI card() {
        return URI.create("http://127.0.0.1:" + remote.getAddress().getPort() + "/.well-known/agent.json");
    }

    @Test
    void remoteAgentsAreLoadedAndWiredAsSubAgentsOfTheOrchestrator() {
        List<RemoteAgent> remotes = RemoteAgent.load(Map.of("weather-bot", card()), CLIENT, CLIENT, null);
        BaseAgent root = AgentTree.orchestrator(new ScriptedLlm(), List.of(), List.copyOf(remotes), PromptBuilder.load(null), 10,
                AgentTree.NO_SECTIONS);

        assertEquals(List.of("planner", "weather-bot"), root.subAgents().stream().map(BaseAgent::name).toList());
        assertTrue(remotes.get(0).description().startsWith("Tells the weather"));
    }

    @Test
    void unreachableCardIsSkippedAndTheLocalSubAgentsRemain() {
        Map<String, URI> configured = new LinkedHashMap<>();
        configured.put("gone", URI.create("http://127.0.0.1:1/.well-known/agent.json"));
        configured.put("weather-bot", card());
        List<RemoteAgent> remotes = RemoteAgent.load(configured, CLIENT, CLIENT, null);

        assertEquals(List.of("weather-bot"), remotes.stream().map(BaseAgent::name).toList());
    }

    @Test
    void transferToARemoteAgentSendsTheRequestAndReturnsItsAnswer() {
        BaseAgent root = AgentTree.orchestrator(new ScriptedLlm()
                        .thenCall("transfer_to_agent", Map.of("agent_name", "weather-bot")),
                List.of(), List.copyOf(RemoteAgent.load(Map.of("weather-bot", card()), CLIENT, CLIENT, null)), PromptBuilder.load(null), 10, AgentTree.NO_SECTIONS);
        InMemorySessionService sessions = new InMemorySessionService();
        Runner adk = Runner.builder().agent(root).appName("lango").sessionService(sessions)
                .artifactService(new InMemoryArtifactService()).plugins(List.of(new DelegationGuard(10))).build();
        sessions.createSession("lango", "user", null, "s1").blockingGet();
        LangoRunner runner = new LangoRunner(adk, root, new LangoRunner.Limits(25, true, Duration.ofSeconds(30)),
                LearnedFixes.NONE);

        assertEquals("Sunny in Seoul.", runner.runAndCollect("user", "s1", "weather in Seoul?", false, e -> { }));
        JsonNode sent = received.get(0);
        assertEquals("message/send", sent.path("method").asText());
        assertEquals("weather in Seoul?", sent.path("params").path("message").path("parts").get(0).path("text").asText());
        assertEquals("s1", sent.path("params").path("message").path("contextId").asText());
    }
}
