package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Where a fold may end, how an orphaned call is closed, and what the model is sent after a compaction. */
class CompactedHistoryTest {

    private long clock = 1_000;

    private Event event(String author, String role, Part... parts) {
        return Event.builder().id(Event.generateEventId()).invocationId("i").author(author)
                .content(Content.builder().role(role).parts(List.of(parts)).build()).actions(EventActions.builder().build())
                .timestamp(clock++).build();
    }

    private Event user(String text) {
        return event("user", "user", Part.fromText(text));
    }

    private Event answer(String text) {
        return event("lango", "model", Part.fromText(text));
    }

    private Event call(String id) {
        return event("lango", "model", Part.builder().functionCall(FunctionCall.builder().id(id).name("exec")
                .args(Map.of("command", "ls")).build()).build());
    }

    private Event result(String id) {
        return event("lango", "user", Part.builder().functionResponse(FunctionResponse.builder().id(id).name("exec")
                .response(Map.of("output", "files")).build()).build());
    }

    private Event confirmation(String id) {
        return event("lango", "user", Part.builder().functionCall(FunctionCall.builder().id(id)
                .name(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME).args(Map.of()).build()).build());
    }

    private Event confirmed(String id) {
        return event("user", "user", Part.builder().functionResponse(FunctionResponse.builder().id(id)
                .name(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME).response(Map.of("confirmed", true)).build()).build());
    }

    static String text(Event event) {
        return event.content().flatMap(Content::parts).orElse(List.of()).stream().map(p -> p.text().orElse(""))
                .reduce("", String::concat);
    }

    @Test
    void aFoldEndsBeforeTheTurnsKeptWhole() {
        List<Event> events = List.of(user("one"), answer("1"), user("two"), answer("2"), user("three"), answer("3"));
        assertEquals(OptionalInt.of(4), CompactedHistory.foldEnd(events, 1));
        assertEquals(OptionalInt.of(2), CompactedHistory.foldEnd(events, 2));
        assertEquals(OptionalInt.empty(), CompactedHistory.foldEnd(events, 3));
        assertEquals(OptionalInt.of(4), CompactedHistory.foldEnd(events, 0), "the newest turn is always kept");
    }

    @Test
    void aFoldNeverSeparatesACallFromItsResult() {
        // turn two's call is answered only after the person's next words (as an approval's run can be)
        List<Event> events = List.of(user("one"), answer("1"), user("two"), call("c1"), user("three"), result("c1"),
                answer("3"), user("four"), answer("4"));
        assertEquals(OptionalInt.of(7), CompactedHistory.foldEnd(events, 1));
        assertEquals(OptionalInt.of(2), CompactedHistory.foldEnd(events, 2), "turn three opens with the call open");
    }

    @Test
    void aPendingConfirmationIsNeverFolded() {
        List<Event> pending = List.of(user("one"), answer("1"), user("two"), call("c1"), result("c1"),
                confirmation("k1"), user("three"), answer("3"), user("four"), answer("4"));
        assertEquals(OptionalInt.of(2), CompactedHistory.foldEnd(pending, 1));
        List<Event> answered = new ArrayList<>(pending.subList(0, 6));
        answered.add(confirmed("k1"));
        answered.addAll(List.of(result("c1"), user("three"), answer("3"), user("four"), answer("4")));
        assertEquals(OptionalInt.of(answered.size() - 2), CompactedHistory.foldEnd(answered, 1));
    }

    @Test
    void aBoundaryNeedsALaterTimestampThanTheLastFoldedEvent() {
        Event one = user("one");
        Event reply = answer("1");
        clock--; // the next words carry the same millisecond as the answer before them
        List<Event> events = List.of(one, reply, user("two"), answer("2"), user("three"), answer("3"));
        assertEquals(OptionalInt.of(4), CompactedHistory.foldEnd(events, 1));
        assertEquals(OptionalInt.empty(), CompactedHistory.foldEnd(events.subList(0, 4), 1));
    }

    @Test
    void anOrphanedCallIsClosedWithAnErrorRightAfterIt() {
        List<Event> events = List.of(user("one"), call("lost"), user("two"), answer("2"), user("three"), call("running"));
        List<Event> closed = CompactedHistory.closeOrphans(events);
        assertEquals(events.size() + 1, closed.size());
        FunctionResponse error = closed.get(2).functionResponses().get(0);
        assertEquals("lost", error.id().orElseThrow());
        assertEquals(CompactedHistory.ORPHAN_ERROR, error.response().orElseThrow().get("error"));
        assertTrue(CompactedHistory.problems(closed).isEmpty(), CompactedHistory.problems(closed).toString());
        assertFalse(CompactedHistory.problems(events).isEmpty(), "the orphan is what was wrong");
        assertEquals(OptionalInt.of(5), CompactedHistory.foldEnd(closed, 1), "the closed orphan no longer blocks");
    }

    @Test
    void theModelReadsTheNewestSummaryAndWhatFollowsItsRange() {
        List<Event> events = new ArrayList<>(List.of(user("remember the code word ALBATROSS"), answer("ok"),
                user("two"), answer("2"), user("three"), answer("3")));
        List<Event> unfolded = CompactedHistory.unfolded(events);
        int end = CompactedHistory.foldEnd(unfolded, 1).orElseThrow();
        events.add(CompactedHistory.compaction(unfolded.subList(0, end), Long.MAX_VALUE, "code word ALBATROSS", "lango",
                clock++));
        events.addAll(List.of(user("four"), answer("4")));
        List<Event> history = CompactedHistory.forModel(events);
        assertEquals(List.of(CompactedHistory.SUMMARY_HEADER + "code word ALBATROSS", "three", "3", "four", "4"),
                history.stream().map(CompactedHistoryTest::text).toList());
        assertTrue(CompactedHistory.problems(history).isEmpty());

        // a second fold takes the first one's summary in and starts where it started
        unfolded = CompactedHistory.unfolded(events);
        end = CompactedHistory.foldEnd(unfolded, 1).orElseThrow();
        long previousStart = CompactedHistory.newest(events).orElseThrow().startTimestamp();
        events.add(CompactedHistory.compaction(unfolded.subList(0, end), previousStart, "code word ALBATROSS; three",
                "lango", clock++));
        history = CompactedHistory.forModel(events);
        assertEquals(List.of(CompactedHistory.SUMMARY_HEADER + "code word ALBATROSS; three", "four", "4"),
                history.stream().map(CompactedHistoryTest::text).toList());
        assertEquals(events.get(0).timestamp(), CompactedHistory.newest(events).orElseThrow().startTimestamp());
    }

    @Test
    void aRequestThatDoesNotOpenWithTheUserIsMalformed() {
        assertFalse(CompactedHistory.problems(List.of(answer("hi"), user("two"))).isEmpty());
        assertFalse(CompactedHistory.problems(List.of(result("x"), user("two"))).isEmpty());
    }
}
