package ai.lango.turn;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fired once after every turn, stored or failed, with what the turn did: observed asynchronously,
 * off the request path, by whatever learns from turns (memory, the learning engine). By the time it
 * fires, everything the turn stored is committed. {@code admin}: whether the turn's credential
 * administers ({@link TurnRequest#admin()}).
 */
public record TurnCompleted(String userId, boolean admin, String sessionKey, String message, String answer,
                            Optional<String> error, List<ToolOutcome> tools, Instant at) {

    public TurnCompleted {
        tools = List.copyOf(tools);
    }

    /** The session the turn ran in. */
    public SessionRef session() {
        return SessionRef.of(userId, sessionKey);
    }

    /** One tool call of the turn and what it answered; {@code error} is set when it failed. */
    public record ToolOutcome(String agent, String name, Map<String, Object> args, Map<String, Object> result,
                              Optional<String> error) {
    }
}
