package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Anthropic;
import ai.lango.fake.FakeLlmServer.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnthropicProviderTest extends ProviderContractTest {

    @Override
    String id() {
        return "anthropic";
    }

    @Override
    Provider provider(ProviderSettings settings) {
        return ProviderCatalog.create(settings);
    }

    @Override
    Reply textReply(String... deltas) {
        return Reply.anthropicText(deltas);
    }

    @Override
    Reply toolCallReply(String id, String name, String argumentsJson) {
        return Reply.anthropicToolUse(id, name, argumentsJson);
    }

    @Override
    String[] completeTextFrames(String... deltas) {
        return FakeLlmServer.Anthropic.textFrames(deltas);
    }

    @Override
    String[] framesWithoutEnd() {
        return new String[] {Anthropic.messageStart(5), Anthropic.textBlockStart(0), Anthropic.textDelta(0, "Hel")};
    }

    @Override
    String errorBody(String message) {
        return "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + message + "\"}}";
    }

    @Test
    void requestGoesToMessagesWithKeyAndVersionHeaders() {
        server.enqueue(Reply.anthropicText("ok"));

        drain(provider(), hello());

        FakeLlmServer.Recorded request = server.last();
        assertEquals("/v1/messages", request.path());
        assertEquals(KEY, request.header("x-api-key"));
        assertEquals("2023-06-01", request.header("anthropic-version"));
        JsonNode body = request.json();
        assertTrue(body.path("stream").asBoolean());
        assertEquals(4096, body.path("max_tokens").asInt(), "Anthropic requires max_tokens: a default is sent");
        assertFalse(body.has("system"));
        assertFalse(body.has("tools"));
    }

    @Test
    void conversationWithToolsIsSentInTheMessagesFormat() {
        server.enqueue(Reply.anthropicText("ok"));

        drain(provider(), toolConversation());

        JsonNode body = server.last().json();
        assertEquals("You are terse.", body.path("system").asText(), "system prompt is a top-level field");
        assertEquals(256, body.path("max_tokens").asInt());
        assertEquals(0.2, body.path("temperature").asDouble());

        JsonNode messages = body.path("messages");
        assertEquals(3, messages.size(), "no system message among the messages: " + messages);
        assertEquals("user", messages.path(0).path("role").asText());
        assertEquals("Weather in Paris?", messages.path(0).path("content").path(0).path("text").asText());

        JsonNode assistant = messages.path(1);
        assertEquals("assistant", assistant.path("role").asText());
        assertEquals("text", assistant.path("content").path(0).path("type").asText());
        assertEquals("Let me check.", assistant.path("content").path(0).path("text").asText());
        JsonNode use = assistant.path("content").path(1);
        assertEquals("tool_use", use.path("type").asText());
        assertEquals("call_1", use.path("id").asText());
        assertEquals("get_weather", use.path("name").asText());
        assertEquals("Paris", use.path("input").path("city").asText(), "input is a JSON object, not text");

        JsonNode result = messages.path(2);
        assertEquals("user", result.path("role").asText(), "tool results are user content");
        assertEquals("tool_result", result.path("content").path(0).path("type").asText());
        assertEquals("call_1", result.path("content").path(0).path("tool_use_id").asText());
        assertEquals("{\"temp\":21}", result.path("content").path(0).path("content").asText());

        JsonNode tool = body.path("tools").path(0);
        assertEquals("get_weather", tool.path("name").asText());
        assertEquals("Current weather in a city", tool.path("description").asText());
        assertEquals("object", tool.path("input_schema").path("type").asText());
    }

    @Test
    void severalSystemMessagesAreJoinedWithNewlines() {
        server.enqueue(Reply.anthropicText("ok"));
        ChatRequest request = new ChatRequest("m", List.of(ChatMessage.system("One."), ChatMessage.user("hi"),
                ChatMessage.system("Two.")), List.of(), null, null);

        drain(provider(), request);

        assertEquals("One.\nTwo.", server.last().json().path("system").asText());
    }

    @Test
    void consecutiveToolResultsAreMergedIntoOneUserMessage() {
        List<ChatMessage> conversation = List.of(
                ChatMessage.user("Weather and time in Paris?"),
                ChatMessage.assistant("", List.of(
                        new ChatMessage.ToolCall("call_w", "get_weather", "{\"city\":\"Paris\"}"),
                        new ChatMessage.ToolCall("call_t", "get_time", "{}"))),
                ChatMessage.tool("call_w", "get_weather", "{\"temp\":21}"),
                ChatMessage.tool("call_t", "get_time", "12:00"),
                ChatMessage.user("Thanks. And Rome?"));

        JsonNode messages = AnthropicProvider.messages(conversation,
                new HttpTransport(settings("http://127.0.0.1:1", java.time.Duration.ofSeconds(1))));

        assertEquals(3, messages.size(), "user / assistant / user alternate: " + messages);
        assertEquals(List.of("user", "assistant", "user"),
                List.of(messages.path(0).path("role").asText(), messages.path(1).path("role").asText(),
                        messages.path(2).path("role").asText()));
        JsonNode uses = messages.path(1).path("content");
        assertEquals(2, uses.size(), "two tool uses and no empty text block: " + uses);
        assertEquals("tool_use", uses.path(0).path("type").asText());
        JsonNode merged = messages.path(2).path("content");
        assertEquals(3, merged.size(), merged.toString());
        assertEquals("call_w", merged.path(0).path("tool_use_id").asText());
        assertEquals("call_t", merged.path(1).path("tool_use_id").asText());
        assertEquals("12:00", merged.path(1).path("content").asText());
        assertEquals("text", merged.path(2).path("type").asText(), "the next user text joins the same turn");
    }

    @Test
    void toolCallWithArgumentsThatAreNotAnObjectIsRejectedBeforeSending() {
        ChatRequest request = new ChatRequest("m", List.of(ChatMessage.user("hi"),
                ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("c", "t", "[1,2]")))), List.of(), null, null);

        ProviderException e = assertThrows(ProviderException.class, () -> provider().open(request));

        assertEquals(ProviderException.Kind.BAD_REQUEST, e.kind());
        assertTrue(server.requests().isEmpty(), "nothing was sent");
    }

    @Test
    void textAndToolUseInOneAnswerKeepTheirOrderAndUsageIsReported() {
        server.enqueue(Reply.sse(Anthropic.messageStart(11), Anthropic.textBlockStart(0),
                Anthropic.textDelta(0, "Checking."), Anthropic.blockStop(0),
                Anthropic.toolUseBlockStart(1, "toolu_1", "clock"), Anthropic.inputJsonDelta(1, ""),
                Anthropic.blockStop(1), Anthropic.messageDelta("tool_use", 7), Anthropic.messageStop()));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of(new StreamEvent.TextDelta("Checking."),
                new StreamEvent.ToolCallEvent("toolu_1", "clock", "{}"),
                new StreamEvent.Usage(11, 7),
                new StreamEvent.Done("tool_use")), events);
    }

    @Test
    void cacheReadsAndWritesCountAsInputAndTheReadsAsCached() throws Exception {
        JsonNode start = new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"type\":\"message_start\",\"message\":"
                + "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-fake\","
                + "\"usage\":{\"input_tokens\":5,\"cache_read_input_tokens\":100,\"cache_creation_input_tokens\":20,"
                + "\"output_tokens\":1}}}");
        server.enqueue(Reply.sse(Anthropic.frame(start), Anthropic.textBlockStart(0), Anthropic.textDelta(0, "Hi."),
                Anthropic.blockStop(0), Anthropic.messageDelta("end_turn", 7), Anthropic.messageStop()));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(new StreamEvent.Usage(125, 7, 100), events.get(events.size() - 2), events.toString());
    }

    @Test
    void errorEventEndsTheStreamWithError() {
        server.enqueue(Reply.sse(Anthropic.messageStart(5), Anthropic.textBlockStart(0),
                Anthropic.textDelta(0, "Hel"), Anthropic.error("overloaded_error", "Overloaded")));

        List<StreamEvent> events = drain(provider(), hello());

        ProviderException e = errorOf(events);
        assertEquals(ProviderException.Kind.SERVER_ERROR, e.kind());
        assertTrue(e.getMessage().contains("Overloaded"), e.getMessage());
    }
}
