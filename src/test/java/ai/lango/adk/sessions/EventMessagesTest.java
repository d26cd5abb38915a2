package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.Message;
import ai.lango.session.ToolCall;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Appending an event (event → stored message) and reading it back (stored message → event). */
class EventMessagesTest {

    private static Event event(String author, Content content) {
        return Event.builder().id("e").invocationId("i").author(author).timestamp(42L).content(content)
                .actions(EventActions.builder().build()).build();
    }

    private static Event callEvent(String id, String name) {
        FunctionCall.Builder call = FunctionCall.builder().name(name).args(Map.of("command", "ls"));
        if (id != null) {
            call.id(id);
        }
        return event("lango-agent", Content.builder().role("model")
                .parts(List.of(Part.builder().functionCall(call.build()).build())).build());
    }

    private static Message stored(String role, String content, String author, ToolCall... calls) {
        return new Message(role, content, Instant.ofEpochMilli(7), author, List.of(calls));
    }

    // --- AppendEvent ---

    @Test
    void functionCallWithOriginalIdIsStoredWithThatId() {
        Message message = EventMessages.toMessage(callEvent("adk-uuid-123", "exec")).orElseThrow();
        assertEquals("adk-uuid-123", message.toolCalls().get(0).id());
        assertEquals("exec", message.toolCalls().get(0).name());
        assertEquals("{\"command\":\"ls\"}", message.toolCalls().get(0).input());
        assertEquals("assistant", message.role());
    }

    @Test
    void functionCallWithoutIdGetsSyntheticCallId() {
        Message message = EventMessages.toMessage(callEvent(null, "search")).orElseThrow();
        assertEquals("call_search", message.toolCalls().get(0).id());
    }

    @Test
    void functionResponseMetadataIsStoredInOutputAndContent() {
        Event response = event("lango-agent", Content.builder().role("user").parts(List.of(Part.builder()
                .functionResponse(FunctionResponse.builder().id("adk-uuid-123").name("exec")
                        .response(Map.of("output", "file.txt")).build()).build())).build());

        Message message = EventMessages.toMessage(response).orElseThrow();

        ToolCall call = message.toolCalls().get(0);
        assertEquals("adk-uuid-123", call.id());
        assertEquals("exec", call.name());
        assertEquals("{\"output\":\"file.txt\"}", call.output());
        assertTrue(message.content().contains("{\"output\":\"file.txt\"}"));
        assertEquals("tool", message.role());
    }

    @Test
    void stateDeltaOnlyEventIsNotStored() {
        Event stateOnly = Event.builder().id("s").invocationId("i").author("lango-agent").timestamp(1L)
                .actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(Map.of("k", "v"))).build()).build();
        assertTrue(EventMessages.toMessage(stateOnly).isEmpty());
    }

    @Test
    void modelRoleIsStoredAsAssistant() {
        Event reply = event("lango-agent", Content.builder().role("model").parts(List.of(Part.fromText("hi"))).build());
        assertEquals("assistant", EventMessages.toMessage(reply).orElseThrow().role());
    }

    @Test
    void storedEventReadsBackIdentical() {
        Event original = callEvent("adk-uuid-123", "exec");
        Message message = EventMessages.toMessage(original).orElseThrow();
        assertEquals(original.toJson(), EventMessages.toEvents(List.of(message), "lango-agent").get(0).toJson());
    }

    // --- EventsAdapter (messages stored without their event) ---

    @Test
    void assistantToolCallsBecomeFunctionCallsWithId() {
        Event event = EventMessages.toEvents(List.of(stored("assistant", "", null,
                new ToolCall("adk-uuid-123", "exec", "{\"cmd\":\"ls\"}", null))), "lango-agent").get(0);

        FunctionCall call = event.functionCalls().get(0);
        assertEquals("adk-uuid-123", call.id().orElseThrow());
        assertEquals("exec", call.name().orElseThrow());
        assertEquals(Map.of("cmd", "ls"), call.args().orElseThrow());
        assertEquals("model", event.content().orElseThrow().role().orElseThrow());
    }

    @Test
    void toolMessageOutputsBecomeFunctionResponsesWithFunctionRole() {
        Event event = EventMessages.toEvents(List.of(stored("tool", "", null,
                new ToolCall("adk-uuid-123", "exec", null, "{\"result\":\"ok\"}"))), "lango-agent").get(0);

        FunctionResponse response = event.functionResponses().get(0);
        assertEquals("adk-uuid-123", response.id().orElseThrow());
        assertEquals("exec", response.name().orElseThrow());
        assertEquals(Map.of("result", "ok"), response.response().orElseThrow());
        assertEquals("function", event.content().orElseThrow().role().orElseThrow());
    }

    @Test
    void aStoredToolResultNamingAnArtifactGivesItsEventTheArtifactDeltaAgain() {
        Event event = EventMessages.toEvents(List.of(stored("tool", "", null,
                new ToolCall("call_shot", "browser_screenshot", null, "{\"url\":\"http://x/\",\"artifact\":"
                        + "\"browser-screenshot.png\",\"version\":2,\"mimeType\":\"image/png\",\"bytes\":512}"))),
                "lango-agent").get(0);
        assertEquals(Map.of("browser-screenshot.png", 2), event.actions().artifactDelta());
        Event plain = EventMessages.toEvents(List.of(stored("tool", "", null,
                new ToolCall("call_exec", "exec", null, "{\"result\":\"ok\"}"))), "lango-agent").get(0);
        assertEquals(Map.of(), plain.actions().artifactDelta());
    }

    @Test
    void legacyToolMessageInfersResponseFromPrecedingAssistantCall() {
        List<Event> events = EventMessages.toEvents(List.of(
                stored("assistant", "", null, new ToolCall("call_exec", "exec", "{}", null)),
                stored("tool", "{\"result\":\"file.txt\"}", null)), "lango-agent");

        FunctionResponse response = events.get(1).functionResponses().get(0);
        assertEquals("call_exec", response.id().orElseThrow());
        assertEquals("exec", response.name().orElseThrow());
        assertEquals(Map.of("result", "file.txt"), response.response().orElseThrow());
    }

    @Test
    void legacyToolMessagesMatchPrecedingCallsByPosition() {
        List<Event> events = EventMessages.toEvents(List.of(
                stored("assistant", "", null, new ToolCall("c1", "fs_read", "{}", null), new ToolCall("c2", "exec", "{}", null)),
                stored("tool", "{\"a\":1}", null),
                stored("tool", "{\"b\":2}", null)), "lango-agent");

        assertEquals("c1", events.get(1).functionResponses().get(0).id().orElseThrow());
        assertEquals("c2", events.get(2).functionResponses().get(0).id().orElseThrow());
    }

    @Test
    void legacyToolMessageWithoutContextBecomesText() {
        Event event = EventMessages.toEvents(List.of(stored("tool", "plain output", null)), "lango-agent").get(0);
        assertTrue(event.functionResponses().isEmpty());
        assertEquals("plain output", event.content().orElseThrow().parts().orElseThrow().get(0).text().orElseThrow());
    }

    @Test
    void userRoleMapsToUserAuthor() {
        assertEquals("user", EventMessages.toEvents(List.of(stored("user", "hi", null)), "lango-agent").get(0).author());
    }

    @Test
    void assistantRoleMapsToAgentName() {
        assertEquals("lango-orchestrator",
                EventMessages.toEvents(List.of(stored("assistant", "hi", null)), "lango-orchestrator").get(0).author());
    }

    @Test
    void modelRoleMapsToRootAgentNameNotModel() {
        Event event = EventMessages.toEvents(List.of(stored("model", "hi", "")), "lango-orchestrator").get(0);
        assertEquals("lango-orchestrator", event.author());
        assertNotEquals("model", event.author());
    }

    @Test
    void modelRoleWithEmptyRootNameMapsToLangoAgent() {
        assertEquals("lango-agent", EventMessages.toEvents(List.of(stored("model", "hi", null)), "").get(0).author());
    }

    @Test
    void unknownRoleFallsBackToRootAgentName() {
        assertEquals("lango-orchestrator",
                EventMessages.toEvents(List.of(stored("narrator", "hi", null)), "lango-orchestrator").get(0).author());
    }

    @Test
    void multiAgentStoredOrchestratorAuthorIsTheEventAuthor() {
        assertEquals("lango-orchestrator", EventMessages.toEvents(List.of(stored("assistant", "hi", "lango-orchestrator")),
                "lango-orchestrator").get(0).author());
    }

    @Test
    void singleAgentAssistantEventsAreAuthoredByLangoAgent() {
        assertEquals("lango-agent", EventMessages.toEvents(List.of(stored("assistant", "hi", null)), "lango-agent").get(0).author());
    }

    @Test
    void storedAuthorWins() {
        assertEquals("executor", EventMessages.toEvents(List.of(stored("assistant", "done", "executor")), "lango-orchestrator")
                .get(0).author());
    }

    @Test
    void toolCallInputThatIsNotJsonIsKeptAsRawArgs() {
        Event event = EventMessages.toEvents(List.of(stored("assistant", "", null,
                new ToolCall("c1", "exec", "ls -la", null))), "lango-agent").get(0);
        assertEquals(Map.of("_raw", "ls -la"), event.functionCalls().get(0).args().orElseThrow());
    }

    @Test
    void nonObjectResponseIsWrappedAsResult() {
        assertEquals(Map.of("result", List.of(1, 2)), EventMessages.response("[1,2]"));
        assertEquals(Map.of("result", "not json"), EventMessages.response("not json"));
        assertFalse(EventMessages.response("{\"a\":1}").containsKey("result"));
    }
}
