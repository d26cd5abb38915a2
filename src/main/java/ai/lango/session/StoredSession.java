package ai.lango.session;

import ai.lango.turn.SessionRef;
import java.time.Instant;
import java.util.Map;

/**
 * A session as stored, without its messages. {@code state} holds the session's own keys only;
 * "app:" and "user:" keys are kept once per app and per user ({@link SessionStore#sharedState}).
 */
public record StoredSession(String key, String appName, String userId, Map<String, Object> state,
                            Instant createdAt, Instant updatedAt) {
    public StoredSession {
        state = Map.copyOf(state);
    }

    /** Which session this is. */
    public SessionRef ref() {
        return new SessionRef(appName, userId, key);
    }
}
