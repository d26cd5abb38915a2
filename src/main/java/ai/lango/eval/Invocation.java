package ai.lango.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One exchange of a case: what the user said, the tool calls (name and arguments, in order; ids ignored), the agents
 * the turn was handed to, the approvals asked with their decisions, and the final answer (null: none expected).
 * {@code extra}: the fields of ADK's format Lango does not read (rubrics, tool responses, …), kept for export.
 */
public record Invocation(String id, String userText, String finalResponse, List<ToolUse> toolUses, List<String> delegations,
                         List<ApprovalStep> approvals, double created, ObjectNode extra) {

    public Invocation {
        toolUses = List.copyOf(toolUses);
        delegations = List.copyOf(delegations);
        approvals = List.copyOf(approvals);
    }

    /** A tool call: the tool's name and its arguments. */
    public record ToolUse(String name, JsonNode args) {
    }

    /**
     * A call that waited for a person: the tool, whether it was approved or denied, and the call's arguments as
     * recorded (null: not recorded; a replay then takes those of the turn's expected calls of that tool).
     */
    public record ApprovalStep(String tool, boolean approved, JsonNode args) {

        public ApprovalStep(String tool, boolean approved) {
            this(tool, approved, null);
        }

        public String decision() {
            return approved ? "approved" : "denied";
        }

        /** The step as approval_match compares it: the tool and the decision. */
        public ApprovalStep asked() {
            return args == null ? this : new ApprovalStep(tool, approved);
        }
    }
}
