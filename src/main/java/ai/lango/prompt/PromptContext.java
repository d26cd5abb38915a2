package ai.lango.prompt;

import ai.lango.turn.SessionRef;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a context source may render for: whose session, and what the user just said; and which
 * stored facts an earlier section of this model call's prompt already carries (a fact is shown in
 * at most one section).
 */
public record PromptContext(String userId, String sessionKey, String userMessage, Set<String> shown) {

    public PromptContext(String userId, String sessionKey, String userMessage) {
        this(userId, sessionKey, userMessage, ConcurrentHashMap.newKeySet());
    }

    /** The session of the turn, or null when there is none. */
    public SessionRef session() {
        return userId == null || sessionKey == null ? null : SessionRef.of(userId, sessionKey);
    }

    /** Whether a section of this prompt already shows the fact {@code id} ("knowledge:deploy-branch"). */
    public boolean alreadyShown(String id) {
        return shown.contains(id);
    }

    /** Records that a section shows the fact {@code id}. */
    public void showing(String id) {
        shown.add(id);
    }
}
