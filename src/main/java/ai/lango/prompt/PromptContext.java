package ai.lango.prompt;

import ai.lango.turn.SessionRef;

/** What a context source may render for: whose session, and what the user just said. */
public record PromptContext(String userId, String sessionKey, String userMessage) {

    /** The session of the turn, or null when there is none. */
    public SessionRef session() {
        return userId == null || sessionKey == null ? null : SessionRef.of(userId, sessionKey);
    }
}
