package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.a2a.A2aClient;
import ai.lango.a2a.A2aException;
import ai.lango.a2a.AgentCard;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.a2a.A2A;
import io.a2a.client.Client;
import io.a2a.client.ClientEvent;
import io.a2a.client.TaskEvent;
import io.a2a.client.TaskUpdateEvent;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.jsonrpc.JSONRPCTransportConfig;
import io.a2a.spec.TextPart;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A2A on the real server (LANGO_A2A_ENABLED=true in the pom): the public agent card at the context
 * root, and POST /api/a2a answering message/send from the official A2A Java SDK client and from
 * Lango's own A2aClient, with the fake LLM as the model.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// A2A's wire on the embedded database; its tasks on PostgreSQL are read, listed and canceled across two servers
// (ScaleOutIT) and kept per user (IdentityIT), which run on both.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class A2aIT extends FakeLlmIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private final HttpClient http = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode rpc(String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "api/a2a"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), "JSON-RPC errors come with 200: " + response.body());
        return JSON.readTree(response.body());
    }

    /** The user texts of every request the fake LLM received. */
    private List<String> userTextsSentToTheModel() {
        List<String> texts = new ArrayList<>();
        for (FakeLlmServer.Recorded request : fake.requests()) {
            request.json().path("messages").forEach(m -> {
                if ("user".equals(m.path("role").asText())) {
                    texts.add(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").toString());
                }
            });
        }
        return texts;
    }

    @Test
    void agentCardIsPublicAtBothWellKnownPathsWithNameSkillsAndEndpoint() throws Exception {
        HttpResponse<String> legacy = get(".well-known/agent.json");
        HttpResponse<String> current = get(".well-known/agent-card.json");

        assertEquals(200, legacy.statusCode(), legacy.body());
        assertTrue(legacy.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals("*", legacy.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertEquals(legacy.body(), current.body());
        JsonNode card = JSON.readTree(legacy.body());
        assertEquals("lango-agent", card.get("name").asText());
        assertEquals("Lango Assistant", card.get("description").asText());
        assertEquals(base + "api/a2a", card.get("url").asText());
        assertEquals("0.3.0", card.get("protocolVersion").asText());
        assertEquals("[{\"url\":\"" + base + "api/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"},"
                + "{\"url\":\"" + base + "api/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]",
                card.get("supportedInterfaces").toString());
        assertTrue(card.at("/capabilities/streaming").asBoolean());
        assertEquals("JSONRPC", card.get("preferredTransport").asText());
        assertEquals("0.1.0-SNAPSHOT", card.get("version").asText());
        assertEquals(1, card.get("skills").size());
        assertEquals("lango-agent", card.at("/skills/0/id").asText());

        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + ".well-known/agent.json"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("method_not_allowed", JSON.readTree(post.body()).at("/error/code").asText());
    }

    @Test
    void officialSdkClientSendsAMessageAndGetsTheModelsAnswer() throws Exception {
        fake.enqueue(Reply.openAiText("Hello ", "from Lango"));
        String context = "sdk-" + UUID.randomUUID();

        io.a2a.spec.AgentCard card = new A2ACardResolver(new JdkA2AHttpClient(), base.toString(),
                ".well-known/agent-card.json").getAgentCard();
        assertTrue(card.capabilities().streaming());
        List<ClientEvent> events = new CopyOnWriteArrayList<>();
        java.util.concurrent.CompletableFuture<io.a2a.spec.Task> completed = new java.util.concurrent.CompletableFuture<>();
        Client client = Client.builder(card).withTransport(JSONRPCTransport.class, new JSONRPCTransportConfig())
                .addConsumer((event, agentCard) -> {
                    events.add(event);
                    // The card says Lango streams, so the SDK streams: the task, its updates, the final status.
                    if (event instanceof TaskUpdateEvent update && update.getTask().getStatus().state().isFinal()) {
                        completed.complete(update.getTask());
                    }
                }).build();
        client.sendMessage(A2A.createUserTextMessage("What can you do over A2A?", context, null));

        io.a2a.spec.Task answer = completed.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertInstanceOf(TaskEvent.class, events.get(0), "the task comes first: " + events);
        assertEquals(io.a2a.spec.TaskState.COMPLETED, answer.getStatus().state());
        assertEquals(context, answer.getContextId());
        assertEquals("Hello from Lango", ((TextPart) answer.getArtifacts().get(0).parts().get(0)).getText());
        assertEquals(io.a2a.spec.Message.Role.AGENT, answer.getStatus().message().getRole());
        assertEquals(List.of("What can you do over A2A?"), userTextsSentToTheModel());

        JsonNode stored = JSON.readTree(get("api/admin/sessions/a2a-" + context).body());
        assertEquals("a2a", stored.get("userId").asText());
        assertEquals("What can you do over A2A?", stored.at("/messages/0/content").asText());
    }

    @Test
    void langosOwnClientReadsTheCardAndKeepsTheConversationInItsContext() throws Exception {
        A2aClient client = new A2aClient(Duration.ofSeconds(60));
        AgentCard card = client.fetchCard(URI.create(base + ".well-known/agent.json"));
        assertEquals("lango-agent", card.name());
        assertEquals(base + "api/a2a", card.jsonRpcUrl().orElseThrow());
        assertEquals(ai.lango.a2a.A2aVersion.V1_0, card.preferred().orElseThrow());
        assertTrue(card.streaming(), "so Lango's client streams from Lango's server");

        String context = "own-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiText("Paris.")).enqueue(Reply.openAiText("About 2.1 million."));
        assertEquals("Paris.", client.send(card, context, "Capital of France?"));
        assertEquals("About 2.1 million.", client.send(card, context, "And its population?"));

        JsonNode second = fake.last().json().get("messages");
        String history = second.toString();
        assertTrue(history.contains("Capital of France?") && history.contains("Paris.")
                && history.contains("And its population?"), "the second turn carries the first: " + history);
    }

    @Test
    void aFailedTurnIsAFailedTaskWithTheUserFacingMessage() throws Exception {
        // Routed by these turns' words: a turn of another test may still ask the model meanwhile.
        fake.route(r -> r.body().contains("hi, failing"), r -> Reply.status(401, "{\"error\":{\"message\":\"bad key\"}}"));
        JsonNode response = rpc("{\"jsonrpc\":\"2.0\",\"id\":\"f1\",\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"role\":\"user\",\"kind\":\"message\",\"messageId\":\"m1\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi, failing\"}]}}}");
        assertEquals("f1", response.get("id").asText());
        assertEquals("failed", response.at("/result/status/state").asText(), response.toString());
        assertTrue(response.at("/result/status/message/parts/0/text").asText().contains("lango.providers.openai.api-key"),
                response.toString());

        A2aClient client = new A2aClient(Duration.ofSeconds(60));
        AgentCard card = client.fetchCard(URI.create(base + ".well-known/agent-card.json"));
        A2aException failure = assertThrows(A2aException.class, () -> client.send(card, null, "hi, failing again"));
        assertTrue(failure.getMessage().startsWith("remote agent \"lango-agent\": the task failed: "), failure.getMessage());
    }

    @Test
    void malformedAndUnknownRequestsGetJsonRpcErrors() throws Exception {
        JsonNode parse = rpc("{not json");
        assertEquals(-32700, parse.at("/error/code").asInt());
        assertTrue(parse.get("id").isNull());
        assertEquals(-32601, rpc("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"agent/dance\",\"params\":{}}").at("/error/code").asInt());
        assertEquals(-32602, rpc("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"message/send\",\"params\":{}}")
                .at("/error/code").asInt());
        assertTrue(fake.requests().isEmpty(), "no turn ran");
    }

    @Test
    void aVersion03CallerResubscribesToARunningTaskAndCancelsIt() throws Exception {
        String ask = "write at length " + java.util.UUID.randomUUID();
        FakeLlmServer.PacedText slow = FakeLlmServer.PacedText.openAi(Duration.ofMillis(300),
                java.util.Collections.nCopies(60, "word ").toArray(String[]::new));
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> slow);
        // started by a streaming caller whose connection then sits unread
        HttpResponse<java.util.stream.Stream<String>> first = http.send(HttpRequest.newBuilder(URI.create(base + "api/a2a"))
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":"
                        + "{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"m-" + ask.hashCode() + "\",\"parts\":"
                        + "[{\"kind\":\"text\",\"text\":\"" + ask + "\"}]}}}")).build(), HttpResponse.BodyHandlers.ofLines());
        JsonNode started = JSON.readTree(first.body().filter(l -> l.startsWith("data:")).findFirst().orElseThrow().substring(5))
                .path("result");
        assertEquals("task", started.path("kind").asText(), started.toString());
        String id = started.path("id").asText();

        HttpResponse<java.util.stream.Stream<String>> stream = http.send(HttpRequest.newBuilder(URI.create(base + "api/a2a"))
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/resubscribe\","
                        + "\"params\":{\"id\":\"" + id + "\"}}")).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, stream.statusCode());
        List<JsonNode> seen = new ArrayList<>();
        java.util.stream.Stream<String> lines = stream.body();
        java.util.Iterator<String> it = lines.iterator();
        while (seen.size() < 2 && it.hasNext()) {
            String line = it.next();
            if (line.startsWith("data:")) {
                seen.add(JSON.readTree(line.substring(5)).path("result"));
            }
        }
        boolean whileWriting = !slow.finished().isDone();
        assertTrue(whileWriting, "the events came while the model still wrote, not at the end: " + seen);
        assertEquals(id, seen.get(0).path("id").asText(), "the task as it stands comes first: " + seen);
        assertTrue(seen.get(1).path("kind").asText().matches("artifact-update|status-update"), "then what it does: " + seen);

        JsonNode canceled = rpc("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"" + id + "\"}}");
        assertEquals("canceled", canceled.at("/result/status/state").asText(), canceled.toString());
        assertEquals(Boolean.FALSE, slow.finished().get(10, java.util.concurrent.TimeUnit.SECONDS), "the model's stream was closed");
        assertEquals("canceled", rpc("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/get\",\"params\":{\"id\":\"" + id + "\"}}")
                .at("/result/status/state").asText());
        assertEquals(-32002, rpc("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"" + id + "\"}}")
                .at("/error/code").asInt(), "a canceled task cannot be canceled again");
        lines.close();
    }
}
