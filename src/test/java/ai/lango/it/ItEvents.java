package ai.lango.it;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A deterministic conversation with a tool call, as ADK's runner would append it. */
public final class ItEvents {

    private ItEvents() {
    }

    public static Event user(String id, long timestamp, String text) {
        return event(id, "user", timestamp, Content.builder().role("user").parts(List.of(Part.fromText(text))).build(), Map.of());
    }

    public static Event model(String id, long timestamp, String text, Map<String, Object> stateDelta) {
        return event(id, "lango-agent", timestamp,
                Content.builder().role("model").parts(List.of(Part.fromText(text))).build(), stateDelta);
    }

    /** user asks, the model calls fs_write, the tool answers, the model replies and changes state. */
    public static List<Event> conversation() {
        Event call = event("e2", "lango-agent", 1_700_000_001_000L, Content.builder().role("model").parts(List.of(
                Part.builder().functionCall(FunctionCall.builder().id("call-1").name("fs_write")
                        .args(Map.of("path", "notes.txt", "content", "hello")).build()).build())).build(), Map.of());
        Event response = event("e3", "lango-agent", 1_700_000_002_000L, Content.builder().role("user").parts(List.of(
                Part.builder().functionResponse(FunctionResponse.builder().id("call-1").name("fs_write")
                        .response(Map.of("written", 5)).build()).build())).build(), Map.of());
        return List.of(
                user("e1", 1_700_000_000_000L, "Write hello to notes.txt"),
                call,
                response,
                model("e4", 1_700_000_003_000L, "Done: notes.txt holds hello.",
                        Map.of("topic", "files", "app:greeting", "hi", "user:name", "Ann", "temp:scratch", 1)));
    }

    /** An event with a state change and no content: changes state, adds no message. */
    public static Event stateOnly(long timestamp) {
        return event("e5", "lango-agent", timestamp, null, Map.of("counter", 2));
    }

    private static Event event(String id, String author, long timestamp, Content content, Map<String, Object> delta) {
        Event.Builder builder = Event.builder()
                .id(id)
                .invocationId("inv-1")
                .author(author)
                .timestamp(timestamp)
                .actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(delta)).build());
        if (content != null) {
            builder.content(content);
        }
        return builder.build();
    }
}
