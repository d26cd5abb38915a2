package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiProviderTest extends ProviderContractTest {

    private static final ObjectMapper JSON = TestJson.MAPPER;

    @Override
    String id() {
        return "openai";
    }

    @Override
    Provider provider(ProviderSettings settings) {
        return ProviderCatalog.create(settings);
    }

    @Override
    Reply textReply(String... deltas) {
        return Reply.openAiText(deltas);
    }

    @Override
    Reply toolCallReply(String id, String name, String argumentsJson) {
        return Reply.openAiToolCall(id, name, argumentsJson);
    }

    @Override
    String[] completeTextFrames(String... deltas) {
        return FakeLlmServer.OpenAi.textFrames(deltas);
    }

    @Override
    String[] framesWithoutEnd() {
        return new String[] {OpenAi.roleFrame(), OpenAi.textFrame("Hel")};
    }

    @Test
    void requestIsAStreamingChatCompletionWithBearerKey() {
        server.enqueue(Reply.openAiText("ok"));

        drain(provider(), hello());

        FakeLlmServer.Recorded request = server.last();
        assertEquals("POST", request.method());
        assertEquals("/chat/completions", request.path());
        assertEquals("Bearer " + KEY, request.header("authorization"));
        JsonNode body = request.json();
        assertEquals("test-model", body.path("model").asText());
        assertTrue(body.path("stream").asBoolean());
        assertTrue(body.path("stream_options").path("include_usage").asBoolean());
        assertFalse(body.has("tools"), "no tools declared, none sent");
        assertFalse(body.has("temperature"));
        assertFalse(body.has("max_tokens"));
    }

    @Test
    void conversationWithToolsIsSentInTheChatCompletionsFormat() {
        server.enqueue(Reply.openAiText("ok"));

        drain(provider(), toolConversation());

        JsonNode body = server.last().json();
        JsonNode messages = body.path("messages");
        assertEquals(4, messages.size());
        assertEquals("system", messages.path(0).path("role").asText());
        assertEquals("You are terse.", messages.path(0).path("content").asText());
        assertEquals("user", messages.path(1).path("role").asText());

        JsonNode assistant = messages.path(2);
        assertEquals("assistant", assistant.path("role").asText());
        assertEquals("Let me check.", assistant.path("content").asText());
        JsonNode call = assistant.path("tool_calls").path(0);
        assertEquals("call_1", call.path("id").asText());
        assertEquals("function", call.path("type").asText());
        assertEquals("get_weather", call.path("function").path("name").asText());
        assertEquals("{\"city\":\"Paris\"}", call.path("function").path("arguments").asText(),
                "arguments travel as JSON text");

        JsonNode tool = messages.path(3);
        assertEquals("tool", tool.path("role").asText());
        assertEquals("call_1", tool.path("tool_call_id").asText());
        assertEquals("{\"temp\":21}", tool.path("content").asText());

        JsonNode fn = body.path("tools").path(0);
        assertEquals("function", fn.path("type").asText());
        assertEquals("get_weather", fn.path("function").path("name").asText());
        assertEquals("Current weather in a city", fn.path("function").path("description").asText());
        assertEquals("string", fn.path("function").path("parameters").path("properties").path("city").path("type").asText());
        assertEquals(0.2, body.path("temperature").asDouble());
        assertEquals(256, body.path("max_tokens").asInt());
    }

    @Test
    void assistantTurnWithOnlyToolCallsHasNullContent() {
        server.enqueue(Reply.openAiText("ok"));
        ChatRequest request = new ChatRequest("m", List.of(ChatMessage.user("hi"),
                ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("c1", "t", "")))), List.of(), null, null);

        drain(provider(), request);

        JsonNode assistant = server.last().json().path("messages").path(1);
        assertTrue(assistant.path("content").isNull());
        assertEquals("{}", assistant.path("tool_calls").path(0).path("function").path("arguments").asText());
    }

    @Test
    void parallelToolCallsAreJoinedPerIndexAndEmittedInIndexOrder() {
        // Fragments of two calls interleaved, as OpenAI sends parallel calls.
        server.enqueue(Reply.sse(OpenAi.roleFrame(),
                OpenAi.frame(toolFragment(0, "call_a", "lookup", "{\"q\":")),
                OpenAi.frame(toolFragment(1, "call_b", "clock", "")),
                OpenAi.frame(toolFragment(0, null, null, "\"x\"}")),
                OpenAi.finishFrame("tool_calls"), OpenAi.usageFrame(3, 4), OpenAi.DONE));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of(
                new StreamEvent.ToolCallEvent("call_a", "lookup", "{\"q\":\"x\"}"),
                new StreamEvent.ToolCallEvent("call_b", "clock", "{}"),
                new StreamEvent.Usage(3, 4),
                new StreamEvent.Done("tool_calls")), events);
    }

    @Test
    void finishReasonWithoutDoneMarkerStillCompletes() {
        server.enqueue(Reply.sse(OpenAi.roleFrame(), OpenAi.textFrame("Hi"), OpenAi.finishFrame("length")));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of(new StreamEvent.TextDelta("Hi"), new StreamEvent.Done("length")), events);
    }

    @Test
    void errorChunkInsideTheStreamEndsWithError() {
        server.enqueue(Reply.sse(OpenAi.roleFrame(), OpenAi.textFrame("Hel"),
                "data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n"));

        List<StreamEvent> events = drain(provider(), hello());

        ProviderException e = errorOf(events);
        assertTrue(e.getMessage().contains("overloaded"), e.getMessage());
    }

    @Test
    void ollamaSpeaksTheSameFormatWithoutAKey() {
        server.enqueue(Reply.openAiText("Hi"));
        Provider ollama = ProviderCatalog.create(new ProviderSettings("ollama", server.baseUrl() + "/v1", null,
                Duration.ofSeconds(2), Duration.ofSeconds(5)));

        List<StreamEvent> events = drain(ollama, hello());

        assertEquals("ollama", ollama.id());
        assertEquals(List.of("Hi"), texts(events));
        assertEquals("/v1/chat/completions", server.last().path());
        assertNull(server.last().header("authorization"), "no key, no Authorization header");
    }

    @Test
    void missingKeyRejectedSaysToSetIt() {
        server.enqueue(Reply.status(401, errorBody("You didn't provide an API key.")));
        Provider provider = provider(new ProviderSettings("openai", server.baseUrl(), null,
                Duration.ofSeconds(2), Duration.ofSeconds(5)));

        ProviderException e = org.junit.jupiter.api.Assertions.assertThrows(ProviderException.class,
                () -> provider.open(hello()));

        assertEquals(ProviderException.Kind.AUTHENTICATION, e.kind());
        assertEquals("openai requires an API key (HTTP 401); set lango.providers.openai.api-key", e.getMessage());
    }

    @Test
    void malformedChunkIsABrokenStream() {
        server.enqueue(Reply.sse(OpenAi.roleFrame(), "data: {not json\n\n"));

        List<StreamEvent> events = drain(provider(), hello());

        assertInstanceOf(StreamEvent.Error.class, events.get(events.size() - 1));
        assertEquals(ProviderException.Kind.BROKEN_STREAM, errorOf(events).kind());
    }

    private static ObjectNode toolFragment(int index, String id, String name, String arguments) {
        ObjectNode delta = JSON.createObjectNode();
        ObjectNode call = delta.putArray("tool_calls").addObject().put("index", index);
        if (id != null) {
            call.put("id", id).put("type", "function");
        }
        ObjectNode fn = call.putObject("function");
        if (name != null) {
            fn.put("name", name);
        }
        fn.put("arguments", arguments);
        return OpenAi.chunk(delta, null);
    }
}
