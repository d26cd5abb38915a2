package ai.lango.turn;

import java.util.Optional;

/**
 * One user message for one session, and whether the answer should stream as it is written; or,
 * with {@code answer}, a person's answer to a request for approval, which resumes the turn that
 * asked (the message is then usually empty). {@code admin}: whether the credential the turn came
 * with administers (what the turn saves is then what every user shares) — from the credential,
 * never from the user's name.
 */
public record TurnRequest(String userId, boolean admin, String sessionKey, String message, boolean streaming,
                          Optional<ApprovalAnswer> answer) {

    /** The answer to the request the agent framework named {@code confirmationId}: approved or not. */
    public record ApprovalAnswer(String confirmationId, boolean approved) {
    }

    public TurnRequest(String userId, boolean admin, String sessionKey, String message, boolean streaming) {
        this(userId, admin, sessionKey, message, streaming, Optional.empty());
    }

    /** The turn that resumes with {@code answer}. */
    public static TurnRequest resuming(String userId, boolean admin, String sessionKey, ApprovalAnswer answer,
                                       boolean streaming) {
        return new TurnRequest(userId, admin, sessionKey, "", streaming, Optional.of(answer));
    }

    /** The session the turn runs in. */
    public SessionRef session() {
        return SessionRef.of(userId, sessionKey);
    }
}
