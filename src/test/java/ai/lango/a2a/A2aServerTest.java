package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON-RPC endpoint's logic in both versions: each request answered in its own, every bad one with A2A's error. */
class A2aServerTest {

    private final EchoTasks tasks = new EchoTasks();
    private final A2aServer server = new A2aServer(tasks);

    private JsonNode respond(String body) throws Exception {
        return respond(body, null);
    }

    private JsonNode respond(String body, String version) throws Exception {
        A2aServer.Answer answer = server.handle(body, version);
        return A2aJson.MAPPER.readTree(assertInstanceOf(A2aServer.Answer.Json.class, answer).body());
    }

    private static String call(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"req-1\",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static String send03(String message) {
        return call("message/send", "{\"message\":" + message + "}");
    }

    private static String userMessage03(String contextId, String text) {
        return "{\"role\":\"user\",\"kind\":\"message\",\"messageId\":\"m-1\"" + (contextId == null ? "" : ",\"contextId\":\""
                + contextId + "\"") + ",\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}";
    }

    private static String userMessage10(String contextId, String text) {
        return "{\"role\":\"ROLE_USER\",\"messageId\":\"m-1\"" + (contextId == null ? "" : ",\"contextId\":\"" + contextId + "\"")
                + ",\"parts\":[{\"text\":\"" + text + "\",\"mediaType\":\"text/plain\"}]}";
    }

    private static void assertError(JsonNode response, int code, String messagePart) {
        assertEquals(code, response.at("/error/code").asInt(), response.toString());
        assertTrue(response.at("/error/message").asText().contains(messagePart), response.toString());
        assertFalse(response.has("result"));
        assertEquals("2.0", response.get("jsonrpc").asText());
    }

    @Test
    void sendMessageIn1_0AnswersWithAWrappedTaskInProtoShapes() throws Exception {
        JsonNode response = respond(call("SendMessage", "{\"message\":" + userMessage10("ctx-7", "hello") + ",\"configuration\":{}}"),
                "1.0");

        assertEquals("req-1", response.get("id").asText());
        JsonNode task = response.at("/result/task");
        assertEquals("ctx-7", task.get("contextId").asText());
        assertEquals("TASK_STATE_COMPLETED", task.at("/status/state").asText());
        assertEquals("ROLE_AGENT", task.at("/status/message/role").asText());
        assertEquals("[{\"text\":\"echo hello in ctx-7\"}]", task.at("/artifacts/0/parts").toString());
        assertEquals("ROLE_USER", task.at("/history/0/role").asText());
        assertFalse(task.has("kind"), "1.0 has no kinds");
        assertTrue(tasks.options.get(0).blocking(), "1.0 blocks unless returnImmediately");
    }

    @Test
    void messageSendIn0_3AnswersWithABareTaskInItsShapes() throws Exception {
        JsonNode result = respond(send03(userMessage03("ctx-7", "hello"))).get("result");

        assertEquals("task", result.get("kind").asText());
        assertEquals("completed", result.at("/status/state").asText());
        assertEquals("agent", result.at("/status/message/role").asText());
        assertEquals("[{\"kind\":\"text\",\"text\":\"echo hello in ctx-7\"}]", result.at("/artifacts/0/parts").toString());
        assertEquals("message", result.at("/history/0/kind").asText());
    }

    @Test
    void theSendOptionsAreReadInEachVersion() throws Exception {
        respond(call("SendMessage", "{\"message\":" + userMessage10("c", "x") + ",\"configuration\":{\"returnImmediately\":true,"
                + "\"historyLength\":1,\"acceptedOutputModes\":[\"text/plain\",\"*/*\"]}}"));
        respond(call("message/send", "{\"message\":" + userMessage03("c", "x") + ",\"configuration\":{\"blocking\":false}}"));
        assertFalse(tasks.options.get(0).blocking());
        assertEquals(1, tasks.options.get(0).historyLength());
        assertEquals(List.of("text/plain", "*/*"), tasks.options.get(0).acceptedOutputModes());
        assertFalse(tasks.options.get(1).blocking());
    }

    @Test
    void historyLengthCutsTheHistoryToTheLastMessages() throws Exception {
        JsonNode task = respond(call("SendMessage", "{\"message\":" + userMessage10("c", "x")
                + ",\"configuration\":{\"historyLength\":1}}")).at("/result/task");
        assertEquals(1, task.get("history").size());
        assertEquals("ROLE_AGENT", task.at("/history/0/role").asText());
        String id = task.get("id").asText();
        assertFalse(respond(call("GetTask", "{\"id\":\"" + id + "\",\"historyLength\":0}")).get("result").has("history"));
    }

    @Test
    void getTaskAnswersTheBareTaskAndAnUnknownIdIsTaskNotFound() throws Exception {
        String id = respond(send03(userMessage03("c", "x"))).at("/result/id").asText();
        assertEquals("TASK_STATE_COMPLETED", respond(call("GetTask", "{\"id\":\"" + id + "\"}")).at("/result/status/state").asText());
        assertEquals("completed", respond(call("tasks/get", "{\"id\":\"" + id + "\"}")).at("/result/status/state").asText());
        assertError(respond(call("GetTask", "{\"id\":\"nope\"}")), -32001, "task nope not found");
        assertError(respond(call("tasks/get", "{}")), -32602, "needs params.id");
    }

    @Test
    void listTasksPagesAndIgnoresTheSdksUnrecognizedStatus() throws Exception {
        respond(send03(userMessage03("c", "a")));
        respond(send03(userMessage03("c", "b")));
        JsonNode listed = respond(call("ListTasks", "{\"pageSize\":1,\"status\":\"UNRECOGNIZED\"}"));
        JsonNode page = listed.get("result");
        assertTrue(page != null, listed.toString());
        assertEquals(1, page.get("tasks").size());
        assertEquals("next", page.get("nextPageToken").asText());
        assertEquals(1, page.get("pageSize").asInt());
        assertEquals(2, page.get("totalSize").asInt());
        assertFalse(page.at("/tasks/0").has("artifacts"), "artifacts only when asked");
        assertError(respond(call("ListTasks", "{\"pageSize\":101}")), -32602, "pageSize must be 1 to 100");
        assertError(respond(call("ListTasks", "{\"status\":\"TASK_STATE_SLEEPING\"}")), -32602, "not a task state");
        assertError(respond(call("tasks/list", "{}")), -32601, "unknown method");
    }

    @Test
    void cancelingAFinishedTaskIsTaskNotCancelable() throws Exception {
        String id = respond(send03(userMessage03("c", "x"))).at("/result/id").asText();
        assertError(respond(call("CancelTask", "{\"id\":\"" + id + "\"}")), -32002, "cannot be canceled");
    }

    @Test
    void aStreamAnswersEveryEventInTheVersionOfItsMethod() throws Exception {
        A2aServer.Answer answer = server.handle(call("SendStreamingMessage", "{\"message\":" + userMessage10("c", "x") + "}"), "1.0");
        A2aServer.Answer.Stream stream = assertInstanceOf(A2aServer.Answer.Stream.class, answer);
        List<JsonNode> frames = new ArrayList<>();
        while (!stream.events().ended()) {
            frames.add(A2aJson.MAPPER.readTree(stream.frame(stream.events().next(Duration.ofSeconds(1)))));
        }
        assertEquals(3, frames.size());
        assertEquals("TASK_STATE_SUBMITTED", frames.get(0).at("/result/task/status/state").asText());
        assertEquals("echo x in c", frames.get(1).at("/result/artifactUpdate/artifact/parts/0/text").asText());
        assertTrue(frames.get(1).at("/result/artifactUpdate/lastChunk").asBoolean());
        assertEquals("TASK_STATE_COMPLETED", frames.get(2).at("/result/statusUpdate/status/state").asText());
        frames.forEach(f -> assertEquals("req-1", f.get("id").asText()));

        A2aServer.Answer.Stream old = (A2aServer.Answer.Stream) server.handle(call("message/stream", "{\"message\":"
                + userMessage03("c", "x") + "}"), null);
        assertEquals("task", A2aJson.MAPPER.readTree(old.frame(old.events().next(Duration.ofSeconds(1)))).at("/result/kind").asText());
        assertEquals("artifact-update", A2aJson.MAPPER.readTree(old.frame(old.events().next(Duration.ofSeconds(1))))
                .at("/result/kind").asText());
        JsonNode last = A2aJson.MAPPER.readTree(old.frame(old.events().next(Duration.ofSeconds(1))));
        assertEquals("status-update", last.at("/result/kind").asText());
        assertTrue(last.at("/result/final").asBoolean());
    }

    @Test
    void numericIdsAreEchoed() throws Exception {
        JsonNode response = respond(send03(userMessage03("c", "x")).replace("\"req-1\"", "42"));
        assertEquals(42, response.get("id").asInt());
        assertTrue(response.get("id").isIntegralNumber());
    }

    @Test
    void anUnknownA2aVersionIsVersionNotSupported() throws Exception {
        assertError(respond(send03(userMessage03("c", "x")), "2.0"), -32009, "A2A version \"2.0\" is not supported");
        assertTrue(tasks.sent.isEmpty());
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
        assertError(respond("[" + send03(userMessage03("c", "x")) + "]"), -32600, "batch requests are not supported");
        assertError(respond("\"hello\""), -32600, "JSON-RPC request object");
        assertError(respond(send03(userMessage03("c", "x")).replace("\"2.0\"", "\"1.0\"")), -32600, "jsonrpc must be \"2.0\"");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1}"), -32600, "method must be a non-empty string");
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"message/send\"}"), -32600, "id must be");
        assertTrue(tasks.sent.isEmpty());
    }

    @Test
    void unknownMethodIsMethodNotFoundNamingBothVersionsMethods() throws Exception {
        JsonNode response = respond("{\"jsonrpc\":\"2.0\",\"id\":\"9\",\"method\":\"message/shout\",\"params\":{}}");
        assertError(response, -32601, "unknown method \"message/shout\"");
        assertTrue(response.at("/error/message").asText().contains("SendMessage"));
        assertEquals("9", response.get("id").asText());
        assertError(respond(call("tasks/pushNotificationConfig/set", "{}")), -32003, "push notifications");
        assertError(respond(call("CreateTaskPushNotificationConfig", "{}")), -32003, "push notifications");
        assertError(respond(call("GetExtendedAgentCard", "{}")), -32007, "no extended card");
    }

    @Test
    void sendWithoutAMessageIsInvalidParams() throws Exception {
        assertError(respond("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\"}"), -32602, "params must be an object");
        assertError(respond(call("SendMessage", "{\"message\":\"hi\"}")), -32602, "params.message is required");
    }

    /** A JSON error without a location (a parser limit, not a syntax error) is a parse error, not an exception. */
    @Test
    void bodyOverTheParsersNestingLimitIsAParseError() throws Exception {
        assertError(respond("[".repeat(5_000)), -32700, "not valid JSON");
    }

    @Test
    void sendRefusesMessagesItCannotTake() throws Exception {
        assertError(respond(send03(userMessage03("c", "x").replace("\"user\"", "\"agent\""))), -32602, "role must be the user's");
        assertError(respond(send03(userMessage03("c", "x").replace("\"user\"", "\"robot\""))), -32602, "role must be");
        assertError(respond(send03("{\"role\":\"user\",\"messageId\":\"m\",\"parts\":[]}")), -32602, "non-empty array");
        assertError(respond(send03(userMessage03("c", "   "))), -32602, "no text");
        assertError(respond(send03(userMessage03("has space", "x"))), -32602, "contextId must be");
        assertError(respond(send03(userMessage03("c".repeat(A2aServer.MAX_CONTEXT_ID_CHARS + 1), "x"))), -32602,
                "contextId must be");
        assertError(respond(send03(userMessage03("c", "x".repeat(A2aServer.MAX_TEXT_CHARS + 1)))), -32602,
                "at most " + A2aServer.MAX_TEXT_CHARS);
        String parts = ",{\"text\":\"p\"}".repeat(A2aServer.MAX_PARTS);
        assertError(respond(call("SendMessage", "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m\",\"parts\":[{\"text\":\"p\"}"
                + parts + "]}}")), -32602, "at most " + A2aServer.MAX_PARTS);
        assertTrue(tasks.sent.isEmpty());
    }

    @Test
    void onlyFilePartsAreAnUnsupportedContentType() throws Exception {
        assertError(respond(send03("{\"role\":\"user\",\"messageId\":\"m\",\"parts\":[{\"kind\":\"file\",\"file\":"
                + "{\"uri\":\"http://x/a.png\",\"name\":\"a.png\"}}]}")), -32005, "text and data parts only; the message has file parts (a.png)");
        assertError(respond(call("SendMessage", "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m\",\"parts\":"
                + "[{\"raw\":\"aGk=\",\"filename\":\"hi.bin\"}]}}")), -32005, "hi.bin");
    }

    @Test
    void textAndDataPartsAreRead() throws Exception {
        respond(call("SendMessage", "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":"
                + "[{\"text\":\"a\"},{\"data\":{\"approved\":true}},{\"text\":\"b\"}]}}"));
        Message sent = tasks.sent.get(0);
        assertEquals("a\nb", sent.text());
        assertTrue(sent.parts().get(1).data().path("approved").asBoolean());
    }

    @Test
    void aTaskIdOfAFinishedTaskIsAnUnsupportedOperation() throws Exception {
        String id = respond(send03(userMessage03("c", "x"))).at("/result/id").asText();
        assertError(respond(send03(userMessage03("c", "x").replace("\"messageId\"", "\"taskId\":\"" + id + "\",\"messageId\""))),
                -32004, "is completed");
        assertError(respond(send03(userMessage03("c", "x").replace("\"messageId\"", "\"taskId\":\"t-9\",\"messageId\""))),
                -32001, "task t-9 not found");
    }
}
