package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WireModelTest {

    private static JsonNode json(Object value) {
        return A2aJson.MAPPER.valueToTree(value);
    }

    private static AgentCard lango() {
        return AgentCard.of("lango-agent", "Lango Assistant", "http://h:1/api/a2a", "0.1.0",
                List.of(new AgentCard.Skill("executor", "executor", "command execution", List.of("lango", "executor"))));
    }

    @Test
    void cardCarriesWhatA2aV03Requires() {
        JsonNode card = json(lango());
        assertEquals("lango-agent", card.get("name").asText());
        assertEquals("Lango Assistant", card.get("description").asText());
        assertEquals("http://h:1/api/a2a", card.get("url").asText());
        assertEquals("0.1.0", card.get("version").asText());
        assertEquals("0.3.0", card.get("protocolVersion").asText());
        assertEquals("JSONRPC", card.get("preferredTransport").asText());
        assertFalse(card.at("/capabilities/streaming").asBoolean(true));
        assertEquals("[\"text/plain\"]", card.get("defaultInputModes").toString());
        assertEquals("[\"text/plain\"]", card.get("defaultOutputModes").toString());
        assertEquals("{\"id\":\"executor\",\"name\":\"executor\",\"description\":\"command execution\","
                + "\"tags\":[\"lango\",\"executor\"]}", card.at("/skills/0").toString());
        assertEquals("{\"transport\":\"JSONRPC\",\"url\":\"http://h:1/api/a2a\"}", card.at("/additionalInterfaces/0").toString());
        assertFalse(card.has("securitySchemes"), "no auth declared unless asked");
        assertFalse(card.has("security"));
    }

    @Test
    void cardWithBearerAuthDeclaresAnHttpBearerScheme() {
        JsonNode card = json(lango().withBearerAuth("lango.auth.token"));
        assertEquals("{\"type\":\"http\",\"scheme\":\"bearer\",\"description\":\"lango.auth.token\"}",
                card.at("/securitySchemes/bearer").toString());
        assertEquals("[{\"bearer\":[]}]", card.get("security").toString());
    }

    @Test
    void jsonRpcUrlIsTheUrlUnlessAnotherTransportIsPreferred() {
        assertEquals(Optional.of("http://h:1/api/a2a"), lango().jsonRpcUrl());
        AgentCard grpc = new AgentCard("g", "", "grpc://h", "1", "0.3.0", "GRPC", null, null, null, null,
                List.of(new AgentCard.Interface("GRPC", "grpc://h"), new AgentCard.Interface("JSONRPC", "http://h/rpc")),
                null, null);
        assertEquals(Optional.of("http://h/rpc"), grpc.jsonRpcUrl());
        AgentCard none = new AgentCard("g", "", "grpc://h", "1", "0.3.0", "GRPC", null, null, null, null, null, null, null);
        assertEquals(Optional.empty(), none.jsonRpcUrl());
    }

    @Test
    void userMessageIsAKindMessageWithOneTextPart() {
        JsonNode message = json(Message.user("hi", "ctx"));
        assertEquals("user", message.get("role").asText());
        assertEquals("message", message.get("kind").asText());
        assertEquals("ctx", message.get("contextId").asText());
        assertEquals(36, message.get("messageId").asText().length());
        assertEquals("[{\"kind\":\"text\",\"text\":\"hi\"}]", message.get("parts").toString());
        assertFalse(message.has("taskId"), "absent fields are left out");
    }

    @Test
    void messageTextReadsTextPartsOnlyWhilePlainTextMentionsTheOthers() throws Exception {
        Message message = A2aJson.MAPPER.readValue("{\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"a\"},"
                + "{\"kind\":\"data\",\"data\":{\"n\":1}},{\"kind\":\"file\",\"file\":{\"name\":\"r.pdf\"}},"
                + "{\"text\":\"b\"}],\"messageId\":\"m\",\"kind\":\"message\",\"metadata\":{\"x\":1}}", Message.class);
        assertEquals("a\nb", message.text());
        assertEquals("a\n{\"n\":1}\n[file: r.pdf]\nb", message.plainText());
    }

    @Test
    void taskStatesTellRunningFromFailed() throws Exception {
        Task task = A2aJson.MAPPER.readValue("{\"id\":\"t\",\"contextId\":\"c\",\"kind\":\"task\",\"status\":{\"state\":"
                + "\"working\",\"timestamp\":\"2025-01-01T00:00:00Z\"}}", Task.class);
        assertTrue(task.running());
        assertEquals("", task.artifactText());
        Task stateless = A2aJson.MAPPER.readValue("{\"id\":\"t\",\"kind\":\"task\"}", Task.class);
        assertEquals("unknown", stateless.state());
        assertFalse(stateless.running());
        assertTrue(Task.FAILED_STATES.contains("rejected"));
    }

    @Test
    void errorResponsesAlwaysCarryAnId() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}",
                json(JsonRpcResponse.failure(null, JsonRpcError.PARSE_ERROR, "bad")).toString());
    }
}
