package ai.lango.turn;

import java.time.Instant;
import java.util.List;

/**
 * What a user's sessions remember, searched by words: the plug-in point behind ADK's memory
 * service (and so its loadMemory tool). The memory subsystem provides it; without it, nothing is
 * ever recalled.
 */
public interface Recall {

    /** One remembered piece: which session remembered it, its text, and when it was written. */
    record Recalled(String sessionKey, String text, Instant at) {
    }

    /** At most {@code limit} remembered pieces of the user's sessions that match the query best. */
    List<Recalled> search(String appName, String userId, String query, int limit);

    Recall NONE = (appName, userId, query, limit) -> List.of();
}
