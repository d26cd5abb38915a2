package ai.lango.adk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.events.ToolConfirmation;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a turn cut off by a crash stands, read from its session's stored events: one case per step a crash can cut. */
class TurnTailTest {

    private static final String AGENT = "lango";
    private static final FunctionCall EXEC = FunctionCall.builder().id("call-1").name("exec")
            .args(Map.of("command", "sleep 8; echo done > marker")).build();

    private static Event event(String author, String role, Part... parts) {
        return Event.builder().id(Event.generateEventId()).invocationId("i").author(author)
                .content(Content.builder().role(role).parts(List.of(parts)).build()).actions(EventActions.builder().build())
                .build();
    }

    private static Event question(String text) {
        return event("user", "user", Part.fromText(text));
    }

    private static Part call(FunctionCall call) {
        return Part.builder().functionCall(call).build();
    }

    private static Part response(String id, String name, Map<String, Object> result) {
        return Part.builder().functionResponse(FunctionResponse.builder().id(id).name(name).response(result).build()).build();
    }

    private static final ToolConfirmation ASKED = ToolConfirmation.builder().hint("approve?").confirmed(false)
            .payload(Map.of("approvalId", "a-1", "tool", "exec")).build();

    /** The gate's result for a call that asks: the request, as ADK stores the tool's response. */
    private static Event awaiting() {
        Event event = event(AGENT, "user", response("call-1", "exec", Map.of("status", "awaiting_approval", "approvalId", "a-1")));
        return event.toBuilder().actions(EventActions.builder().requestedToolConfirmations(Map.of("call-1", ASKED)).build()).build();
    }

    private static Event confirmation() {
        return event(AGENT, "user", call(FunctionCall.builder().id("confirm-1").name(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME)
                .args(Map.of("originalFunctionCall", EXEC, "toolConfirmation", ASKED)).build()));
    }

    private static Event answer(boolean approved) {
        return event("user", "user", response("confirm-1", Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
                Map.of("confirmed", approved)));
    }

    @Test
    void aStoredAnswerLeavesNothingToDo() {
        TurnTail.Left left = TurnTail.of(List.of(question("hi"), event(AGENT, "model", Part.fromText("Hello."))));
        assertEquals(new TurnTail.Over(false, "Hello."), left);
    }

    @Test
    void aStoredErrorLeavesTheTurnFailed() {
        Event error = Event.builder().id(Event.generateEventId()).invocationId("i").author(AGENT)
                .errorCode(new FinishReason("server_stopped")).errorMessage("stopped").actions(EventActions.builder().build()).build();
        assertEquals(new TurnTail.Over(true, ""), TurnTail.of(List.of(question("hi"), error)));
    }

    @Test
    void aQuestionWithoutItsAnswerAsksTheModelAgain() {
        assertEquals(new TurnTail.AskModel("tell a long story"), TurnTail.of(List.of(question("hi"),
                event(AGENT, "model", Part.fromText("Hello.")), question("tell a long story"))));
    }

    @Test
    void storedToolResultsWithoutTheNextAnswerAskTheModelAgain() {
        FunctionCall read = FunctionCall.builder().id("call-r").name("fs_read").args(Map.of("path", "a.txt")).build();
        TurnTail.Left left = TurnTail.of(List.of(question("read a.txt"), event(AGENT, "model", call(read)),
                event(AGENT, "user", response("call-r", "fs_read", Map.of("content", "A")))));
        assertEquals(new TurnTail.AskModel("read a.txt"), left);
    }

    @Test
    void aCallWithoutItsResultWasCutWhileItsToolMayHaveRun() {
        TurnTail.Left left = TurnTail.of(List.of(question("write the marker"), event(AGENT, "model", call(EXEC))));
        assertEquals(new TurnTail.CallsCut(AGENT, List.of(EXEC), "write the marker"), left);
    }

    @Test
    void aRequestForApprovalStoredWithItsConfirmationStaysWaiting() {
        assertInstanceOf(TurnTail.Waiting.class, TurnTail.of(List.of(question("write the marker"),
                event(AGENT, "model", call(EXEC)), awaiting(), confirmation())));
    }

    @Test
    void aRequestForApprovalWithoutItsConfirmationIsToBeAskedAgain() {
        Event calls = event(AGENT, "model", call(EXEC));
        Event response = awaiting();
        assertEquals(new TurnTail.Unasked(calls, response), TurnTail.of(List.of(question("write the marker"), calls, response)));
    }

    @Test
    void anAnswerWithNothingAfterItNamesTheCallItDecided() {
        TurnTail.Left left = TurnTail.of(List.of(question("write the marker"), event(AGENT, "model", call(EXEC)), awaiting(),
                confirmation(), answer(true)));
        assertEquals(new TurnTail.Answered(AGENT, List.of(new TurnTail.Decided("confirm-1", EXEC)), "write the marker"), left);
    }

    @Test
    void anEmptySessionLeavesNothingToResume() {
        assertEquals(new TurnTail.Over(true, ""), TurnTail.of(List.of()));
    }
}
