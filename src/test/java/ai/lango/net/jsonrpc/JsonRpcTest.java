package ai.lango.net.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one JSON-RPC 2.0 codec: what it writes, what a server takes, what a client reads, and how ids match. */
class JsonRpcTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static JsonRpc.Invalid refused(String body, boolean responses) {
        return assertThrows(JsonRpc.Invalid.class, () -> {
            if (responses) {
                JsonRpc.readMessage(body);
            } else {
                JsonRpc.readRequest(body);
            }
        });
    }

    @Test
    void errorResponsesAlwaysCarryAnId() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}",
                JsonRpc.error(null, JsonRpc.PARSE_ERROR, "bad").toString());
    }

    @Test
    void messagesAreWrittenWithTheirMembersInOrder() throws Exception {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{}}",
                JsonRpc.request(7, "tools/list", json("{}")).toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"ping\"}", JsonRpc.request("a-1", "ping", null).toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":{}}",
                JsonRpc.notification("notifications/initialized", json("{}")).toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"9\",\"result\":{\"ok\":true}}",
                JsonRpc.result(json("\"9\""), json("{\"ok\":true}")).toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", JsonRpc.result(null, json("{}")).toString());
    }

    @Test
    void aBodyThatIsNotJsonIsAParseErrorWithANullIdSayingWhere() {
        JsonRpc.Invalid invalid = refused("{\"jsonrpc\":\"2.0\",", false);
        assertEquals(JsonRpc.PARSE_ERROR, invalid.code());
        assertNull(invalid.id());
        assertTrue(invalid.getMessage().startsWith("the body is not valid JSON") && invalid.getMessage().contains("line 1"),
                invalid.getMessage());
        assertEquals(JsonRpc.PARSE_ERROR, refused("", false).code());
        assertTrue(refused("  ", false).getMessage().contains("empty"));
    }

    @Test
    void aBatchIsRefusedByEitherServerReading() {
        for (boolean responses : new boolean[] {false, true}) {
            JsonRpc.Invalid batch = refused("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", responses);
            assertEquals(JsonRpc.INVALID_REQUEST, batch.code());
            assertTrue(batch.getMessage().contains("batch requests are not supported"), batch.getMessage());
        }
    }

    @Test
    void whatIsNoRequestIsAnInvalidRequestAnsweringItsIdWhenOneWasRead() {
        assertTrue(refused("\"hello\"", false).getMessage().contains("JSON-RPC request object"));
        JsonRpc.Invalid objectId = refused("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}", true);
        assertEquals(JsonRpc.INVALID_REQUEST, objectId.code());
        assertNull(objectId.id(), "an id that is no id is not answered to");
        JsonRpc.Invalid version = refused("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}", false);
        assertEquals("jsonrpc must be \"2.0\"", version.getMessage());
        assertEquals(3, version.id().asInt());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32600,\"message\":\"jsonrpc must be \\\"2.0\\\"\"}}",
                version.response().toString());
        assertEquals("method must be a non-empty string", refused("{\"jsonrpc\":\"2.0\",\"id\":1}", true).getMessage());
        assertEquals("method must be a non-empty string", refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\" \"}", false).getMessage());
        assertEquals("method must be a non-empty string", refused("{\"jsonrpc\":\"2.0\",\"method\":5}", true).getMessage());
    }

    @Test
    void aResponseIsTakenOnlyByAServerThatAskedSomething() throws Exception {
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":\"lango-elicit-1\",\"result\":{\"action\":\"decline\"}}";
        assertEquals("decline", JsonRpc.readMessage(answer).at("/result/action").asText());
        assertEquals("method must be a non-empty string", refused(answer, false).getMessage());
        assertEquals(JsonRpc.INVALID_REQUEST, refused("{\"jsonrpc\":\"2.0\",\"result\":{}}", true).code(), "an answer to no id");
        assertEquals("ping", JsonRpc.readRequest("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}").get("method").asText());
    }

    @Test
    void messagesAreToldApart() throws Exception {
        assertTrue(JsonRpc.isRequest(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertFalse(JsonRpc.isRequest(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}")));
        assertFalse(JsonRpc.isRequest(json("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"notifications/progress\"}")));
        assertTrue(JsonRpc.isResponse(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"x\"}}")));
        assertFalse(JsonRpc.isResponse(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertFalse(JsonRpc.isResponse(json("[1]")));
    }

    @Test
    void anIdMatchesWhetherThePeerWritesItAsANumberOrAsItsText() throws Exception {
        assertEquals(JsonRpc.key(json("1")), JsonRpc.key(json("\"1\"")));
        assertEquals("12345678901234567890", JsonRpc.key(json("12345678901234567890")));
        assertEquals("lango-elicit-3", JsonRpc.key(json("\"lango-elicit-3\"")));
        assertNull(JsonRpc.key(null));
        assertNull(JsonRpc.key(json("null")));
    }

    @Test
    void aClientReadsOneMessageOrEachOfABatch() throws Exception {
        assertEquals(2, JsonRpc.readAll("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]").size());
        assertEquals(1, JsonRpc.readAll("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}").size());
        assertEquals(List.of(), JsonRpc.readAll(" "));
    }

    @Test
    void aResponsesErrorIsFoundWhenItHasOne() throws Exception {
        assertEquals(-32000, JsonRpc.errorOf(json("{\"id\":1,\"error\":{\"code\":-32000,\"message\":\"nonce too low\"}}"))
                .orElseThrow().path("code").asInt());
        assertTrue(JsonRpc.errorOf(json("{\"id\":1,\"error\":null,\"result\":\"0x1\"}")).isEmpty());
        assertTrue(JsonRpc.errorOf(json("{\"id\":1,\"result\":{}}")).isEmpty());
        assertTrue(JsonRpc.errorOf(null).isEmpty());
    }
}
