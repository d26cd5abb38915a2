package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.a2a.FakeAgentServer.Answer;
import com.fasterxml.jackson.core.type.TypeReference;
import io.a2a.A2A;
import io.a2a.client.Client;
import io.a2a.client.ClientEvent;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.jsonrpc.JSONRPCTransportConfig;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Lango's hand-written A2A model against the official A2A Java SDK (0.3.2.Final): what one writes,
 * the other reads, in both directions.
 */
class SdkWireCompatibilityTest {

    private static final AgentCard LANGO = AgentCard.of("lango-agent", "Lango Assistant", "http://h:1/api/a2a", "0.1.0",
            List.of(new AgentCard.Skill("planner", "planner", "planning", List.of("lango", "planner"))));

    @Test
    void theSdkReadsLangosCard() throws Exception {
        io.a2a.spec.AgentCard card = Utils.unmarshalFrom(LANGO.withBearerAuth("token").toJson().toString(),
                new TypeReference<io.a2a.spec.AgentCard>() {
                });
        assertEquals("lango-agent", card.name());
        assertEquals("Lango Assistant", card.description());
        assertEquals("http://h:1/api/a2a", card.url());
        assertEquals("0.3.0", card.protocolVersion());
        assertEquals("JSONRPC", card.preferredTransport());
        assertTrue(card.capabilities().streaming());
        assertEquals(List.of("text/plain", "application/json"), card.defaultOutputModes());
        assertEquals("planner", card.skills().get(0).id());
        assertEquals(List.of("lango", "planner"), card.skills().get(0).tags());
        assertEquals("bearer", assertInstanceOf(HTTPAuthSecurityScheme.class, card.securitySchemes().get("bearer")).getScheme());
        assertFalse(card.supportsAuthenticatedExtendedCard());
    }

    @Test
    void langoReadsTheSdksCard() throws Exception {
        io.a2a.spec.AgentCard sdk = new io.a2a.spec.AgentCard.Builder().name("sdk-agent").description("from the SDK")
                .url("http://h:2/rpc").version("9").capabilities(new io.a2a.spec.AgentCapabilities.Builder().streaming(true).build())
                .defaultInputModes(List.of("text")).defaultOutputModes(List.of("text"))
                .skills(List.of(new io.a2a.spec.AgentSkill.Builder().id("s").name("S").description("d").tags(List.of("t")).build()))
                .build();
        AgentCard card = AgentCard.read(Utils.OBJECT_MAPPER.readTree(Utils.OBJECT_MAPPER.writeValueAsString(sdk)), null);
        assertEquals("sdk-agent", card.name());
        assertEquals("http://h:2/rpc", card.jsonRpcUrl().orElseThrow());
        assertEquals(List.of(new AgentCard.Skill("s", "S", "d", List.of("t"))), card.skills());
    }

    @Test
    void langoAnswersTheSdksMessageSendWithATaskTheSdkReads() throws Exception {
        SendMessageRequest request = new SendMessageRequest("7", new MessageSendParams.Builder()
                .message(A2A.createUserTextMessage("ping", "ctx-sdk", null)).build());
        A2aServer server = new A2aServer(new EchoTasks());

        SendMessageResponse response = Utils.unmarshalFrom(json(server.handle(Utils.OBJECT_MAPPER.writeValueAsString(request), null)),
                new TypeReference<SendMessageResponse>() {
                });

        assertNull(response.getError());
        assertEquals("7", response.getId());
        io.a2a.spec.Task answer = assertInstanceOf(io.a2a.spec.Task.class, response.getResult());
        assertEquals(TaskState.COMPLETED, answer.getStatus().state());
        assertEquals("ctx-sdk", answer.getContextId());
        assertEquals("echo ping in ctx-sdk", ((TextPart) answer.getArtifacts().get(0).parts().get(0)).getText());
        assertEquals(io.a2a.spec.Message.Role.AGENT, answer.getStatus().message().getRole());
    }

    @Test
    void theSdkReadsLangosErrors() throws Exception {
        A2aServer server = new A2aServer(new EchoTasks());
        SendMessageResponse response = Utils.unmarshalFrom(json(server.handle(Utils.OBJECT_MAPPER.writeValueAsString(
                new SendMessageRequest("8", new MessageSendParams.Builder().message(A2A.toUserMessage("x", "m"))
                        .build())).replace("\"messageId\"", "\"taskId\":\"t-0\",\"messageId\""), null)),
                new TypeReference<SendMessageResponse>() {
                });
        assertEquals(-32001, response.getError().getCode());
        assertEquals("task t-0 not found", response.getError().getMessage());
    }

    private static String json(A2aServer.Answer answer) {
        return ((A2aServer.Answer.Json) answer).body();
    }

    @Test
    void langoReadsTheSdksTaskAndMessageResults() throws Exception {
        io.a2a.spec.Task task = new io.a2a.spec.Task.Builder().id("t1").contextId("c")
                .status(new TaskStatus(TaskState.COMPLETED))
                .artifacts(List.of(new io.a2a.spec.Artifact.Builder().artifactId("a").parts(new TextPart("forty-two")).build()))
                .build();
        try (FakeAgentServer remote = new FakeAgentServer()) {
            remote.on("/rpc", Answer.json(Utils.OBJECT_MAPPER.writeValueAsString(new SendMessageResponse("1", task))));
            AgentCard card = new AgentCard("sdk", "", "1", java.util.Map.of(A2aVersion.V0_3, remote.uri("/rpc").toString()), false,
                    List.of(), java.util.Optional.empty());
            A2aClient client = new A2aClient(Duration.ofSeconds(5));
            assertEquals("forty-two", client.send(card, "c", "q"));

            remote.on("/rpc", Answer.json(Utils.OBJECT_MAPPER.writeValueAsString(
                    new SendMessageResponse("2", A2A.createAgentTextMessage("hello", "c", null)))));
            assertEquals("hello", client.send(card, "c", "q"));
        }
    }

    @Test
    void theSdkClientTalksToLangosEndpoint() throws Exception {
        A2aServer server = new A2aServer(new EchoTasks());
        try (FakeAgentServer remote = new FakeAgentServer()) {
            remote.on("/rpc", request -> Answer.json(json(server.handle(request.body(), request.version()))));
            remote.on("/.well-known/agent-card.json", Answer.json(new AgentCard("lango-agent", "Lango Assistant", "1",
                    java.util.Map.of(A2aVersion.V1_0, remote.uri("/rpc").toString(), A2aVersion.V0_3, remote.uri("/rpc").toString()),
                    false, List.of(), java.util.Optional.empty()).toJson().toString()));

            io.a2a.spec.AgentCard card = A2A.getAgentCard(remote.uri("").toString());
            List<ClientEvent> events = new CopyOnWriteArrayList<>();
            Client client = Client.builder(card).withTransport(JSONRPCTransport.class, new JSONRPCTransportConfig())
                    .addConsumer((event, agentCard) -> events.add(event)).build();
            client.sendMessage(A2A.createUserTextMessage("quiet please", "ctx-1", null));

            io.a2a.spec.Task answer = assertInstanceOf(io.a2a.client.TaskEvent.class, events.get(0)).getTask();
            assertEquals("echo quiet please in ctx-1", ((TextPart) answer.getArtifacts().get(0).parts().get(0)).getText());
            assertEquals("ctx-1", answer.getContextId());
        }
    }
}
