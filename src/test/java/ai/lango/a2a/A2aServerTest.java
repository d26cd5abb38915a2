package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class A2aServerTest {

    private final List<String> turns = new ArrayList<>();
    private final A2aServer server = new A2aServer((contextId, text) -> {
        turns.add(contextId + "|" + text);
        return "answer to " + text;
    });

    private JsonNode respond(String body) throws Exception {
        return A2aJson.MAPPER.readTree(server.handle(body));
    }

    private static String send(String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"req-1\",\"method\":\"message/send\",\"params\":{\"message\":" + message + "}}";
    }

    private static String userMessage(String contextId, String text) {
        return "{\"role\":\"user\",\"kind\":\"message\",\"messageId\":\"m-1\"" + (contextId == null ? "" : ",\"contextId\":\""
                + contextId + "\"") + ",\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}";
    }

    private static void assertError(JsonNode response, int code, String messagePart) {
        assertEquals(code, response.at("/error/code").asInt(), response.toString());
        assertTrue(response.at("/error/message").asText().contains(messagePart), response.toString());
        assertFalse(response.has("result"));
        assertEquals("2.0", response.get("jsonrpc").asText());
    }

    @Test
    void messageSendAnswersWithAnAgentMessageInTheSameContext() throws Exception {
        JsonNode response = respond(send(userMessage("ctx-7", "hello")));

        assertEquals(List.of("ctx-7|hello"), turns);
        assertEquals("req-1", response.get("id").asText());
        assertFalse(response.has("error"));
        JsonNode result = response.get("result");
        assertEquals("message", result.get("kind").asText());
        assertEquals("agent", result.get("role").asText());
        assertEquals("ctx-7", result.get("contextId").asText());
        assertFalse(result.get("messageId").asText().isBlank());
        assertEquals("[{\"kind\":\"text\",\"text\":\"answer to hello\"}]", result.get("parts").toString());
    }

    @Test
    void messageSendWithoutAContextStartsOneAndReturnsIt() throws Exception {
        JsonNode result = respond(send(userMessage(null, "hi"))).get("result");
        String context = result.get("contextId").asText();
        assertEquals(36, context.length(), "a UUID");
        assertEquals(List.of(context + "|hi"), turns);
    }

    @Test
    void textPartsAreJoinedOnePerLine() throws Exception {
        respond(send("{\"role\":\"user\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{\"kind\":\"text\",\"text\":\"a\"},"
                + "{\"kind\":\"data\",\"data\":{\"x\":1}},{\"kind\":\"text\",\"text\":\"b\"}]}"));
        assertEquals(List.of("c|a\nb"), turns);
    }

    @Test
    void numericIdsAreEchoed() throws Exception {
        JsonNode response = respond(send(userMessage("c", "x")).replace("\"req-1\"", "42"));
        assertEquals(42, response.get("id").asInt());
        assertTrue(response.get("id").isIntegralNumber());
    }

    @Test
    void invalidJsonIsAParseErrorWithANullId() throws Exception {
        JsonNode response = respond("{\"jsonrpc\":\"2.0\",");
        assertError(response, -32700, "not valid JSON");
        assertTrue(response.has("id") && response.get("id").isNull(), response.toString());
        assertError(respond(""), -32700, "empty");
    }

    @Test
    void requestsThatAreNotJsonRpcAreInvalidRequests() throws Exception {
        assertError(respond("[" + send(userMessage("c", "x")) + "]"), -32600, "batch requests are not supported");
        assertError(respond("\"hello\""), -32600, "JSON-RPC request object");
        assertError(respond(send(userMessage("c", "x")).replace("\"2.0\"", "\"1.0\"")), -32600, "jsonrpc must be \"2.0\"");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1}"), -32600, "method must be a non-empty string");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"message/send\"}"), -32600, "id must be");
        assertTrue(turns.isEmpty());
    }

    @Test
    void unknownMethodIsMethodNotFound() throws Exception {
        JsonNode response = respond("{\"jsonrpc\":\"2.0\",\"id\":\"9\",\"method\":\"message/shout\",\"params\":{}}");
        assertError(response, -32601, "unknown method \"message/shout\"");
        assertEquals("9", response.get("id").asText());
    }

    @Test
    void streamingAndTaskMethodsGetA2aErrors() throws Exception {
        assertError(respond(send(userMessage("c", "x")).replace("message/send", "message/stream")), -32004, "streaming");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"t1\"}}"), -32001,
                "task \"t1\" not found");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"t1\"}}"), -32001,
                "not found");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/pushNotificationConfig/set\",\"params\":{}}"),
                -32003, "push notifications");
    }

    @Test
    void messageSendWithoutAMessageIsInvalidParams() throws Exception {
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\"}"), -32602, "params.message is required");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":\"hi\"}}"),
                -32602, "params.message is required");
    }

    /** A JSON error without a location (a parser limit, not a syntax error) is a parse error, not an exception. */
    @Test
    void bodyOverTheParsersNestingLimitIsAParseError() throws Exception {
        assertError(respond("[".repeat(5_000)), -32700, "not valid JSON");
    }

    @Test
    void messageSendRefusesMessagesItCannotTake() throws Exception {
        assertError(respond(send(userMessage("c", "x").replace("\"user\"", "\"agent\""))), -32602, "role must be \"user\"");
        assertError(respond(send(userMessage("c", "x").replace("\"kind\":\"message\"", "\"kind\":\"task\""))), -32602,
                "kind must be \"message\"");
        assertError(respond(send("{\"role\":\"user\",\"messageId\":\"m\",\"parts\":[]}")), -32602, "non-empty array");
        assertError(respond(send(userMessage("c", "   "))), -32602, "no text");
        assertError(respond(send(userMessage("has space", "x"))), -32602, "contextId must be");
        assertError(respond(send(userMessage("c".repeat(A2aServer.MAX_CONTEXT_ID_CHARS + 1), "x"))), -32602,
                "contextId must be");
        assertError(respond(send(userMessage("c", "x".repeat(A2aServer.MAX_TEXT_CHARS + 1)))), -32602,
                "at most " + A2aServer.MAX_TEXT_CHARS);
        assertTrue(turns.isEmpty());
    }

    @Test
    void onlyNonTextPartsAreAnUnsupportedContentType() throws Exception {
        assertError(respond(send("{\"role\":\"user\",\"messageId\":\"m\",\"parts\":[{\"kind\":\"file\",\"file\":"
                + "{\"uri\":\"http://x/a.png\"}}]}")), -32005, "text parts only; the message has file parts");
    }

    @Test
    void aTaskIdIsATaskThatDoesNotExist() throws Exception {
        assertError(respond(send(userMessage("c", "x").replace("\"messageId\"", "\"taskId\":\"t-9\",\"messageId\""))),
                -32001, "task \"t-9\" not found");
        assertTrue(turns.isEmpty());
    }

    @Test
    void aFailedTurnIsAJsonRpcErrorWithItsMessage() throws Exception {
        A2aServer failing = new A2aServer((contextId, text) -> {
            throw new A2aException("no model provider is configured: set lango.provider");
        });
        JsonNode response = A2aJson.MAPPER.readTree(failing.handle(send(userMessage("c", "x"))));
        assertError(response, -32603, "no model provider is configured: set lango.provider");
        assertEquals("req-1", response.get("id").asText());
    }
}
