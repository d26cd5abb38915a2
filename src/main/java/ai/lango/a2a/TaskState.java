package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** The states of an A2A task, written as each version writes them. */
public enum TaskState {
    SUBMITTED, WORKING, COMPLETED, FAILED, CANCELED, INPUT_REQUIRED, REJECTED, AUTH_REQUIRED, UNKNOWN;

    /** {@code TASK_STATE_INPUT_REQUIRED} (1.0) or {@code input-required} (0.3). */
    public String wire(A2aVersion version) {
        return version == A2aVersion.V1_0 ? "TASK_STATE_" + (this == UNKNOWN ? "UNSPECIFIED" : name())
                : name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Changes no more. */
    public boolean terminal() {
        return this == COMPLETED || this == FAILED || this == CANCELED || this == REJECTED;
    }

    /** Waits for the caller: the task goes on when it sends the next message. */
    public boolean interrupted() {
        return this == INPUT_REQUIRED || this == AUTH_REQUIRED;
    }

    /** Still at work: submitted or working. */
    public boolean running() {
        return this == SUBMITTED || this == WORKING;
    }

    /** A state as either version writes it (or 1.0's numbers); UNKNOWN for anything else. */
    public static TaskState read(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return UNKNOWN;
        }
        if (node.isIntegralNumber()) {
            int n = node.asInt();
            return n >= 1 && n <= 8 ? values()[n - 1] : UNKNOWN;
        }
        return parse(node.asText(""));
    }

    /** A state's name in either version's spelling; UNKNOWN for anything else. */
    public static TaskState parse(String text) {
        String name = text.strip().toUpperCase(Locale.ROOT).replace('-', '_').replaceFirst("^TASK_STATE_", "");
        if (name.equals("CANCELLED")) {
            return CANCELED;
        }
        for (TaskState state : values()) {
            if (state.name().equals(name)) {
                return state;
            }
        }
        return UNKNOWN;
    }
}
