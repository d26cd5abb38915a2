package ai.lango.adk;

import ai.lango.session.Roles;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a turn cut off by a crash stands, read from the end of its session's stored events: what is left to do.
 * Events are stored before anything is told of them, a model's call before its tool runs, and a tool's result before
 * the model is asked again; so the last stored event says which step was cut.
 */
final class TurnTail {

    private static final ObjectMapper JSON = JsonBaseModel.getMapper();

    private TurnTail() {
    }

    /** What is left of a turn. */
    sealed interface Left {
    }

    /** Nothing: its answer is stored (the crash came after it), or it ended with a stored error. */
    record Over(boolean failed, String answer) implements Left {
    }

    /** It waits for a person's answer, asked and recorded before the crash: it stays waiting. */
    record Waiting() implements Left {
    }

    /** The model is asked (again): the question, or the tools' results, are stored and no answer to them is. */
    record AskModel(String userText) implements Left {
    }

    /**
     * Calls the model made whose tools may have started and whose results are not stored: they ran, partly ran, or
     * never ran — nobody can tell.
     */
    record CallsCut(String agent, List<FunctionCall> calls, String userText) implements Left {
    }

    /**
     * A person's answer (or the timeout's) is stored and nothing after it: the calls it decided, each with the id of
     * the confirmation it answered. Whether one ran is the approval's record to tell.
     */
    record Answered(String agent, List<Decided> calls, String userText) implements Left {
    }

    /** A call a person's answer decided: the confirmation answered, and the call as the model made it. */
    record Decided(String confirmationId, FunctionCall call) {
    }

    /**
     * A request for approval was stored as the tool's result but the confirmation that carries it to the person was
     * not: {@code response} asks for it, about the calls of {@code calls}.
     */
    record Unasked(Event calls, Event response) implements Left {
    }

    /** What is left of the turn whose session's events, oldest first, end with {@code events}. */
    static Left of(List<Event> events) {
        if (events.isEmpty()) {
            return new Over(true, "");
        }
        Event last = events.get(events.size() - 1);
        String userText = lastUserText(events);
        if (last.errorCode().isPresent() && parts(last).isEmpty()) {
            return new Over(true, "");
        }
        if (Roles.USER.equals(last.author())) {
            List<FunctionResponse> confirmations = last.functionResponses().stream()
                    .filter(r -> Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME.equals(r.name().orElse(""))).toList();
            if (confirmations.isEmpty()) {
                return new AskModel(userText);
            }
            List<Decided> decided = new ArrayList<>();
            String agent = null;
            for (FunctionResponse confirmation : confirmations) {
                String id = confirmation.id().orElse("");
                for (int i = events.size() - 2; i >= 0; i--) {
                    Optional<FunctionCall> asked = events.get(i).functionCalls().stream()
                            .filter(c -> id.equals(c.id().orElse(null))).findFirst();
                    if (asked.isPresent()) {
                        Optional<FunctionCall> original = original(asked.get());
                        if (original.isPresent()) {
                            decided.add(new Decided(id, original.get()));
                            agent = events.get(i).author();
                        }
                        break;
                    }
                }
            }
            return decided.isEmpty() ? new AskModel(userText) : new Answered(agent, decided, userText);
        }
        if (!last.functionCalls().isEmpty()) {
            if (last.functionCalls().stream().anyMatch(TurnTail::isConfirmation)) {
                return new Waiting();
            }
            return new CallsCut(last.author(), last.functionCalls(), userText);
        }
        if (!last.functionResponses().isEmpty()) {
            if (!last.actions().requestedToolConfirmations().isEmpty()) {
                for (int i = events.size() - 2; i >= 0; i--) {
                    if (!events.get(i).functionCalls().isEmpty()) {
                        return new Unasked(events.get(i), last);
                    }
                }
                return new Over(true, "");
            }
            return new AskModel(userText);
        }
        StringBuilder answer = new StringBuilder();
        parts(last).stream().filter(part -> !part.thought().orElse(false)).forEach(part -> part.text().ifPresent(answer::append));
        return new Over(false, answer.toString());
    }

    static boolean isConfirmation(FunctionCall call) {
        return Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME.equals(call.name().orElse(""));
    }

    /** The call a confirmation asks about, as ADK's confirmation call carries it. */
    static Optional<FunctionCall> original(FunctionCall confirmation) {
        Object original = confirmation.args().orElse(Map.of()).get("originalFunctionCall");
        if (original == null) {
            return Optional.empty();
        }
        try {
            FunctionCall call = original instanceof FunctionCall given ? given : JSON.convertValue(original, FunctionCall.class);
            return call.id().isPresent() ? Optional.of(call) : Optional.empty();
        } catch (IllegalArgumentException notACall) {
            return Optional.empty();
        }
    }

    /** The text of the session's last message from its user: what the turn was asked. */
    private static String lastUserText(List<Event> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            Event event = events.get(i);
            if (!Roles.USER.equals(event.author())) {
                continue;
            }
            StringBuilder text = new StringBuilder();
            parts(event).forEach(part -> part.text().ifPresent(text::append));
            if (text.length() > 0) {
                return text.toString();
            }
        }
        return "";
    }

    private static List<Part> parts(Event event) {
        return event.content().flatMap(Content::parts).orElse(List.of());
    }
}
