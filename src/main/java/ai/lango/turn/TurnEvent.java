package ai.lango.turn;

import java.util.Map;

/**
 * What a client sees of a turn while it runs, in Lango's own words: the agent framework's events
 * are translated into these where it is adapted, so the edges never see its types. Each names the
 * agent it came from.
 */
public sealed interface TurnEvent {

    String agent();

    /** A piece of the answer, the moment the model wrote it (streamed turns only). */
    record Chunk(String agent, String text) implements TurnEvent {
    }

    /** The model asked for a tool; stored before it runs. */
    record ToolCall(String agent, String id, String name, Map<String, Object> args) implements TurnEvent {
    }

    /** What the tool answered; an {@code error} entry means it failed. */
    record ToolResult(String agent, String id, String name, Map<String, Object> result) implements TurnEvent {

        public boolean failed() {
            return result.containsKey("error");
        }
    }

    /**
     * A tool call waits for a person: {@code approvalId} is what they answer, {@code args} are the
     * call's arguments with secrets masked, {@code notes} what the person must see besides (the secrets the
     * call carries and where they go, the files changed since the last approved command). The turn ends here
     * and resumes with the answer.
     */
    record ApprovalRequest(String agent, String approvalId, String tool, Map<String, Object> args, String safety,
                           String expiresAt, Map<String, Object> notes) implements TurnEvent {
    }

    /** A running tool says how far it got: {@code progress} out of {@code total} (0 when unknown). */
    record ToolProgress(String agent, String tool, double progress, double total, String message) implements TurnEvent {
    }

    /**
     * The turn was cut off by a crash and goes on (after its server started again, or on another server): what it had
     * streamed and not stored is gone, and what follows continues it. {@code note} says so to a person.
     */
    record Resumed(String agent, String note) implements TurnEvent {
    }

    /** {@code agent} handed the turn to {@code to}. */
    record Delegation(String agent, String to) implements TurnEvent {
    }
}
