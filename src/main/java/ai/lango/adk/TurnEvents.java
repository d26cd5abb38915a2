package ai.lango.adk;

import ai.lango.turn.TurnCompleted;
import ai.lango.turn.TurnEvent;
import com.google.adk.events.Event;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * ADK's events in Lango's words: a streamed chunk, the tool calls and results of a stored event,
 * a request for approval (ADK's confirmation request, carrying what the approval gate put in it),
 * a delegation. Also remembers the turn's tool calls with what they answered, for
 * {@link TurnCompleted}.
 */
final class TurnEvents implements Consumer<Event> {

    private final Consumer<TurnEvent> listener;
    private final Map<String, FunctionCall> calls = new LinkedHashMap<>();
    private final Map<String, String> callAgents = new LinkedHashMap<>();
    private final List<TurnCompleted.ToolOutcome> outcomes = new ArrayList<>();

    TurnEvents(Consumer<TurnEvent> listener) {
        this.listener = listener;
    }

    /** An event that does not come from ADK's stream (a tool's progress), passed on as it is. */
    void report(TurnEvent event) {
        listener.accept(event);
    }

    @Override
    public void accept(Event event) {
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
        String agent = event.author();
        if (event.partial().orElse(false)) {
            StringBuilder text = new StringBuilder();
            for (Part part : parts) {
                if (!part.thought().orElse(false)) {
                    part.text().ifPresent(text::append);
                }
            }
            if (text.length() > 0) {
                listener.accept(new TurnEvent.Chunk(agent, text.toString()));
            }
            return;
        }
        for (Part part : parts) {
            Optional<TurnEvent.ApprovalRequest> approval = part.functionCall().flatMap(call -> approvalRequest(agent, call));
            if (approval.isPresent()) {
                listener.accept(approval.get());
                continue;
            }
            part.functionCall().ifPresent(call -> {
                String id = call.id().orElse("");
                calls.put(id, call);
                callAgents.put(id, agent);
                listener.accept(new TurnEvent.ToolCall(agent, id, call.name().orElse(""), call.args().orElse(Map.of())));
            });
            part.functionResponse().filter(response -> !Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME.equals(response.name().orElse(""))).ifPresent(response -> {
                TurnEvent.ToolResult result = result(agent, response);
                outcomes.add(outcome(result));
                listener.accept(result);
            });
        }
        event.actions().transferToAgent().ifPresent(to -> listener.accept(new TurnEvent.Delegation(agent, to)));
    }

    /** The request for approval an ADK confirmation call carries, if it is one. */
    static Optional<TurnEvent.ApprovalRequest> approvalRequest(String agent, FunctionCall call) {
        if (!Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME.equals(call.name().orElse(""))) {
            return Optional.empty();
        }
        Object confirmation = call.args().orElse(Map.of()).get("toolConfirmation");
        Map<?, ?> payload = confirmation instanceof Map<?, ?> c && c.get("payload") instanceof Map<?, ?> p ? p
                : confirmation instanceof com.google.adk.events.ToolConfirmation tc && tc.payload() instanceof Map<?, ?> p2 ? p2
                : Map.of();
        if (!(payload.get("approvalId") instanceof String approvalId)) {
            return Optional.empty();
        }
        Map<String, Object> args = new LinkedHashMap<>();
        if (payload.get("args") instanceof Map<?, ?> given) {
            given.forEach((k, v) -> args.put(String.valueOf(k), v));
        }
        Map<String, Object> notes = new LinkedHashMap<>();
        if (payload.get("notes") instanceof Map<?, ?> given) {
            given.forEach((k, v) -> notes.put(String.valueOf(k), v));
        }
        Object named = payload.get("agent");
        return Optional.of(new TurnEvent.ApprovalRequest(named == null ? agent : String.valueOf(named), approvalId,
                String.valueOf(payload.get("tool")), args, String.valueOf(payload.get("safety")),
                String.valueOf(payload.get("expiresAt")), notes));
    }

    /** The requests for approval an event carries, with the id of ADK's confirmation call of each. */
    static Map<String, String> confirmationIds(Event event) {
        Map<String, String> ids = new LinkedHashMap<>();
        for (FunctionCall call : event.functionCalls()) {
            approvalRequest(event.author(), call).ifPresent(request -> ids.put(request.approvalId(), call.id().orElse("")));
        }
        return ids;
    }

    private static TurnEvent.ToolResult result(String agent, FunctionResponse response) {
        return new TurnEvent.ToolResult(agent, response.id().orElse(""), response.name().orElse(""),
                response.response().orElse(Map.of()));
    }

    private TurnCompleted.ToolOutcome outcome(TurnEvent.ToolResult result) {
        FunctionCall call = calls.get(result.id());
        Map<String, Object> args = call == null ? Map.of() : call.args().orElse(Map.of());
        Optional<String> error = result.failed() ? Optional.of(String.valueOf(result.result().get("error"))) : Optional.empty();
        return new TurnCompleted.ToolOutcome(callAgents.getOrDefault(result.id(), result.agent()), result.name(), args,
                result.result(), error);
    }

    /** Every tool call of the turn so far, with what it answered, in order. */
    List<TurnCompleted.ToolOutcome> outcomes() {
        return List.copyOf(outcomes);
    }
}
