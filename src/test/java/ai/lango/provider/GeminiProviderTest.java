package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Gemini;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeminiProviderTest extends ProviderContractTest {

    private static final ObjectMapper JSON = TestJson.MAPPER;

    @Override
    String id() {
        return "gemini";
    }

    @Override
    Provider provider(ProviderSettings settings) {
        return ProviderCatalog.create(settings);
    }

    @Override
    Reply textReply(String... deltas) {
        return Reply.geminiText(deltas);
    }

    @Override
    Reply toolCallReply(String id, String name, String argumentsJson) {
        return Reply.geminiFunctionCall(name, argumentsJson);
    }

    @Override
    String expectedCallId(String sentId, String name) {
        return "call_" + name; // Gemini sends no id
    }

    @Override
    String[] completeTextFrames(String... deltas) {
        return FakeLlmServer.Gemini.textFrames(deltas);
    }

    @Override
    String[] framesWithoutEnd() {
        return new String[] {Gemini.textFrame("Hel", null, 0)};
    }

    @Override
    String errorBody(String message) {
        return "{\"error\":{\"code\":400,\"message\":\"" + message + "\",\"status\":\"INVALID_ARGUMENT\"}}";
    }

    @Test
    void requestStreamsOverSseWithKeyInHeaderNeverInUrl() {
        server.enqueue(Reply.geminiText("ok"));

        drain(provider(), new ChatRequest("models/gemini-2.0-flash", List.of(ChatMessage.user("hi")), List.of(),
                null, null));

        FakeLlmServer.Recorded request = server.last();
        assertEquals("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", request.path());
        assertEquals(KEY, request.header("x-goog-api-key"));
        assertFalse(request.path().contains(KEY));
        JsonNode body = request.json();
        assertFalse(body.has("systemInstruction"));
        assertFalse(body.has("tools"));
        assertFalse(body.has("generationConfig"));
    }

    @Test
    void conversationWithToolsIsSentInTheGenerateContentFormat() {
        server.enqueue(Reply.geminiText("ok"));

        drain(provider(), toolConversation());

        JsonNode body = server.last().json();
        assertEquals("You are terse.", body.path("systemInstruction").path("parts").path(0).path("text").asText());
        JsonNode contents = body.path("contents");
        assertEquals(3, contents.size(), contents.toString());
        assertEquals("user", contents.path(0).path("role").asText());
        assertEquals("Weather in Paris?", contents.path(0).path("parts").path(0).path("text").asText());

        JsonNode model = contents.path(1);
        assertEquals("model", model.path("role").asText());
        assertEquals("Let me check.", model.path("parts").path(0).path("text").asText());
        JsonNode call = model.path("parts").path(1).path("functionCall");
        assertEquals("get_weather", call.path("name").asText());
        assertEquals("Paris", call.path("args").path("city").asText());

        JsonNode response = contents.path(2);
        assertEquals("user", response.path("role").asText());
        JsonNode fr = response.path("parts").path(0).path("functionResponse");
        assertEquals("get_weather", fr.path("name").asText());
        assertEquals(21, fr.path("response").path("temp").asInt(), "an object result is sent as the object");

        JsonNode declaration = body.path("tools").path(0).path("functionDeclarations").path(0);
        assertEquals("get_weather", declaration.path("name").asText());
        assertEquals("Current weather in a city", declaration.path("description").asText());
        assertEquals("object", declaration.path("parameters").path("type").asText());
        assertEquals(0.2, body.path("generationConfig").path("temperature").asDouble());
        assertEquals(256, body.path("generationConfig").path("maxOutputTokens").asInt());
    }

    @Test
    void plainTextToolResultIsWrappedAndParallelResultsShareOneContent() {
        server.enqueue(Reply.geminiText("ok"));
        ChatRequest request = new ChatRequest("gemini-x", List.of(ChatMessage.user("Time and weather?"),
                ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("call_get_time", "get_time", "{}"),
                        new ChatMessage.ToolCall("call_get_weather", "get_weather", "{}"))),
                ChatMessage.tool("call_get_time", "get_time", "12:00"),
                ChatMessage.tool("call_get_weather", "get_weather", "[1,2]")), List.of(), null, null);

        drain(provider(), request);

        JsonNode contents = server.last().json().path("contents");
        assertEquals(3, contents.size(), contents.toString());
        JsonNode parts = contents.path(2).path("parts");
        assertEquals(2, parts.size());
        assertEquals("12:00", parts.path(0).path("functionResponse").path("response").path("result").asText());
        assertEquals("[1,2]", parts.path(1).path("functionResponse").path("response").path("result").asText());
    }

    @Test
    void sameFunctionCalledTwiceGetsDistinctIds() {
        ArrayNode parts = JSON.createArrayNode();
        parts.addObject().putObject("functionCall").put("name", "lookup").putObject("args").put("q", "a");
        parts.addObject().putObject("functionCall").put("name", "lookup").putObject("args").put("q", "b");
        parts.addObject().putObject("functionCall").put("name", "clock");
        server.enqueue(Reply.sse(Gemini.frame(Gemini.chunk(parts, "STOP", 4, 6))));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of(
                new StreamEvent.ToolCallEvent("call_lookup", "lookup", "{\"q\":\"a\"}"),
                new StreamEvent.ToolCallEvent("call_lookup_2", "lookup", "{\"q\":\"b\"}"),
                new StreamEvent.ToolCallEvent("call_clock", "clock", "{}"),
                new StreamEvent.Usage(4, 6),
                new StreamEvent.Done("STOP")), events);
    }

    @Test
    void cachedContentTokensAreReportedAsCachedInput() {
        ArrayNode parts = JSON.createArrayNode();
        parts.addObject().put("text", "Hi.");
        com.fasterxml.jackson.databind.node.ObjectNode chunk = Gemini.chunk(parts, "STOP", 40, 6);
        ((com.fasterxml.jackson.databind.node.ObjectNode) chunk.get("usageMetadata")).put("cachedContentTokenCount", 32);
        server.enqueue(Reply.sse(Gemini.frame(chunk)));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(new StreamEvent.Usage(40, 6, 32), events.get(events.size() - 2), events.toString());
    }

    @Test
    void finishReasonIsOnlyHonouredOnceTheStreamEndsNormally() {
        // The finishReason arrived, but the connection then broke: the answer cannot be trusted.
        server.enqueue(Reply.brokenAfter(Gemini.textFrame("All", "STOP", 1)));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(ProviderException.Kind.BROKEN_STREAM, errorOf(events).kind());
    }

    @Test
    void thoughtPartsAreNotPartOfTheAnswer() {
        ArrayNode parts = JSON.createArrayNode();
        parts.addObject().put("text", "thinking...").put("thought", true);
        parts.addObject().put("text", "Answer");
        server.enqueue(Reply.sse(Gemini.frame(Gemini.chunk(parts, "STOP", 1, 1))));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of("Answer"), texts(events));
        assertTrue(events.get(events.size() - 1) instanceof StreamEvent.Done);
    }
}
