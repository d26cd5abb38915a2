package ai.lango.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One conversation to replay: its invocations in order, the session's starting state ({@code sessionInput}: ADK's
 * app name, user and state; may be null) and the fields Lango does not read, kept for export.
 */
public record EvalCase(String evalId, List<Invocation> conversation, ObjectNode sessionInput, double created, ObjectNode extra) {

    public EvalCase {
        conversation = List.copyOf(conversation);
    }

    public EvalCase withId(String id) {
        return new EvalCase(id, conversation, sessionInput, created, extra);
    }
}
