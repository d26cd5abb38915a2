package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The model as each version writes it, and the readers that take either. */
class A2aWireTest {

    private static AgentCard lango() {
        return AgentCard.of("lango-agent", "Lango Assistant", "http://h:1/api/a2a", "0.1.0",
                List.of(new AgentCard.Skill("executor", "executor", "command execution", List.of("lango", "executor"))));
    }

    private static JsonNode json(String text) throws Exception {
        return A2aJson.MAPPER.readTree(text);
    }

    @Test
    void theCardListsBothVersions1_0FirstAndKeeps0_3sFields() {
        JsonNode card = lango().toJson();
        assertEquals("[{\"url\":\"http://h:1/api/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"},"
                + "{\"url\":\"http://h:1/api/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]",
                card.get("supportedInterfaces").toString());
        assertEquals("http://h:1/api/a2a", card.get("url").asText());
        assertEquals("0.3.0", card.get("protocolVersion").asText());
        assertEquals("JSONRPC", card.get("preferredTransport").asText());
        assertTrue(card.at("/capabilities/streaming").asBoolean());
        assertEquals("[\"text/plain\",\"application/json\"]", card.get("defaultInputModes").toString());
        assertEquals("[\"text/plain\",\"application/json\"]", card.get("defaultOutputModes").toString());
        assertEquals("{\"id\":\"executor\",\"name\":\"executor\",\"description\":\"command execution\","
                + "\"tags\":[\"lango\",\"executor\"]}", card.at("/skills/0").toString());
        assertFalse(card.has("securitySchemes"), "no auth declared unless asked");
    }

    @Test
    void aCardWithBearerAuthDeclaresTheSchemeInBothShapes() {
        JsonNode card = lango().withBearerAuth("a token").toJson();
        JsonNode scheme = card.at("/securitySchemes/bearer");
        assertEquals("http", scheme.get("type").asText());
        assertEquals("bearer", scheme.get("scheme").asText());
        assertEquals("Bearer", scheme.at("/httpAuthSecurityScheme/scheme").asText());
        assertEquals("[{\"bearer\":[]}]", card.get("security").toString());
        assertEquals("[{\"schemes\":{\"bearer\":{\"list\":[]}}}]", card.get("securityRequirements").toString(), "1.0's shape");
        assertEquals(Optional.of("bearer"), AgentCard.read(card, null).bearer());
    }

    @Test
    void aCardIsReadInEitherVersion() throws Exception {
        AgentCard both = AgentCard.read(lango().toJson(), null);
        assertEquals(A2aVersion.V1_0, both.preferred().orElseThrow());
        assertEquals(lango().skills(), both.skills());
        assertTrue(both.streaming());

        AgentCard old = AgentCard.read(json("{\"name\":\"o\",\"url\":\"/rpc\",\"protocolVersion\":\"0.3.0\"}"),
                URI.create("http://host:8/.well-known/agent.json"));
        assertEquals(Map.of(A2aVersion.V0_3, "http://host:8/rpc"), old.endpoints());

        AgentCard grpcFirst = AgentCard.read(json("{\"name\":\"g\",\"url\":\"grpc://h\",\"preferredTransport\":\"GRPC\","
                + "\"additionalInterfaces\":[{\"transport\":\"JSONRPC\",\"url\":\"http://h/rpc\"}]}"), null);
        assertEquals(Optional.of("http://h/rpc"), grpcFirst.jsonRpcUrl());

        AgentCard unversioned = AgentCard.read(json("{\"name\":\"n\",\"supportedInterfaces\":[{\"url\":\"http://h/x\","
                + "\"protocolBinding\":\"jsonrpc\"}]}"), null);
        assertEquals(A2aVersion.V1_0, unversioned.preferred().orElseThrow(), "a 1.0 field without a version is 1.0's");

        assertEquals(Optional.empty(), AgentCard.read(json("{\"name\":\"g\",\"supportedInterfaces\":[{\"url\":\"grpc://h\","
                + "\"protocolBinding\":\"GRPC\"}]}"), null).preferred());
        assertEquals("it has no name", assertThrows(IllegalArgumentException.class,
                () -> AgentCard.read(json("{\"url\":\"http://h\"}"), null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentCard.read(json("{\"name\":\"f\",\"url\":\"file:///x\"}"),
                null)).getMessage().contains("not an http:// or https:// URL"));
    }

    @Test
    void partsAreWrittenAsEachVersionWritesThem() {
        Part file = new Part(null, null, null, "aGk=", "hi.txt", "text/plain");
        assertEquals("{\"text\":\"hi\"}", A2aWire.part(A2aVersion.V1_0, Part.text("hi")).toString());
        assertEquals("{\"kind\":\"text\",\"text\":\"hi\"}", A2aWire.part(A2aVersion.V0_3, Part.text("hi")).toString());
        assertEquals("{\"raw\":\"aGk=\",\"filename\":\"hi.txt\",\"mediaType\":\"text/plain\"}", A2aWire.part(A2aVersion.V1_0, file).toString());
        assertEquals("{\"kind\":\"file\",\"file\":{\"bytes\":\"aGk=\",\"name\":\"hi.txt\",\"mimeType\":\"text/plain\"}}",
                A2aWire.part(A2aVersion.V0_3, file).toString());
    }

    @Test
    void aTaskIsWrittenWithEachVersionsStatesRolesAndKinds() {
        Task task = new Task("t", "c", new Task.Status(TaskState.INPUT_REQUIRED, Message.agent("ok?", "c", "t"),
                Instant.parse("2026-01-01T00:00:00Z")), List.of(), List.of(Message.user("hi", "c").in("c", "t")));
        JsonNode v1 = A2aWire.sendResult(A2aVersion.V1_0, task, null);
        assertEquals("TASK_STATE_INPUT_REQUIRED", v1.at("/task/status/state").asText());
        assertEquals("ROLE_AGENT", v1.at("/task/status/message/role").asText());
        assertEquals("ROLE_USER", v1.at("/task/history/0/role").asText());
        assertEquals("2026-01-01T00:00:00Z", v1.at("/task/status/timestamp").asText());
        JsonNode v03 = A2aWire.sendResult(A2aVersion.V0_3, task, null);
        assertEquals("task", v03.get("kind").asText());
        assertEquals("input-required", v03.at("/status/state").asText());
        assertEquals("agent", v03.at("/status/message/role").asText());
        assertEquals("message", v03.at("/status/message/kind").asText());
    }

    @Test
    void messagesAndTasksAreReadInEitherShape() throws Exception {
        Message v1 = A2aWire.readMessage(json("{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"a\"},"
                + "{\"data\":{\"n\":1}},{\"url\":\"http://x/r.pdf\",\"filename\":\"r.pdf\"}]}"));
        Message v03 = A2aWire.readMessage(json("{\"role\":\"user\",\"kind\":\"message\",\"messageId\":\"m\",\"parts\":"
                + "[{\"kind\":\"text\",\"text\":\"a\"},{\"kind\":\"data\",\"data\":{\"n\":1}},{\"kind\":\"file\",\"file\":"
                + "{\"uri\":\"http://x/r.pdf\",\"name\":\"r.pdf\"}}],\"metadata\":{\"x\":1}}"));
        assertEquals(v1.parts(), v03.parts());
        assertEquals("a", v1.text());
        assertEquals("a\n{\"n\":1}\n[file: r.pdf]", v1.plainText());
        assertEquals(Message.Role.USER, A2aWire.readMessage(json("{\"role\":1,\"parts\":[]}")).role());

        Task task = A2aWire.readTask(json("{\"task\":{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":4}}}"));
        assertEquals(TaskState.FAILED, task.state());
        assertEquals(TaskState.WORKING, A2aWire.readTask(json("{\"kind\":\"task\",\"id\":\"t\",\"status\":{\"state\":"
                + "\"working\"}}")).state());
        assertEquals(TaskState.UNKNOWN, A2aWire.readTask(json("{\"id\":\"t\"}")).state());
        assertEquals(TaskState.CANCELED, TaskState.parse("cancelled"));
    }

    @Test
    void streamEventsAreReadInEitherShape() throws Exception {
        TaskEvent.StatusUpdate v1 = assertInstanceOf(TaskEvent.StatusUpdate.class, A2aWire.readResult(json(
                "{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}")));
        assertTrue(v1.last(), "1.0 has no final flag: a final state ends the stream");
        TaskEvent.ArtifactUpdate v03 = assertInstanceOf(TaskEvent.ArtifactUpdate.class, A2aWire.readResult(json(
                "{\"kind\":\"artifact-update\",\"taskId\":\"t\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"kind\":\"text\","
                        + "\"text\":\"x\"}]},\"append\":true}")));
        assertTrue(v03.append());
        assertEquals("x", v03.artifact().plainText());
        assertInstanceOf(Message.class, A2aWire.readResult(json("{\"message\":{\"role\":\"ROLE_AGENT\",\"parts\":[]}}")));
        assertThrows(IllegalArgumentException.class, () -> A2aWire.readResult(json("{\"kind\":\"status\"}")));
    }

    @Test
    void aTaskShowsEveryStateItWasInWithWhenEachBeganAndKeepsThemWhenStored() {
        Instant begun = Instant.parse("2026-11-28T10:00:00Z");
        Task task = new Task("t", "c", new Task.Status(TaskState.SUBMITTED, null, begun), List.of(),
                List.of(Message.user("hi", "c").in("c", "t")))
                .moved(TaskState.WORKING, null, begun.plusSeconds(1))
                .moved(TaskState.INPUT_REQUIRED, Message.agent("May I?", "c", "t"), begun.plusSeconds(2))
                .moved(TaskState.COMPLETED, null, begun.plusSeconds(5));
        JsonNode v1 = A2aWire.task(A2aVersion.V1_0, task, 0);
        JsonNode states = v1.at("/metadata/lango/stateHistory");
        assertEquals(4, states.size(), v1.toString());
        assertEquals("TASK_STATE_SUBMITTED", states.get(0).path("state").asText());
        assertEquals("2026-11-28T10:00:00Z", states.get(0).path("timestamp").asText(), "when the task began");
        assertEquals("TASK_STATE_INPUT_REQUIRED", states.get(2).path("state").asText());
        assertEquals("TASK_STATE_COMPLETED", states.get(3).path("state").asText(), "the current state last");
        assertFalse(states.get(2).has("message"), "the messages are in the history, not repeated here");
        assertEquals("input-required", A2aWire.task(A2aVersion.V0_3, task, 0).at("/metadata/lango/stateHistory/2/state").asText());

        Task read = A2aWire.readTask(A2aWire.task(A2aVersion.V1_0, task, null));
        assertEquals(task.stateHistory(), read.stateHistory(), "as stored, so read back");
        assertEquals(task, read);
    }
}
