package ai.lango.session;

import java.util.Map;

/**
 * State changes carried by one appended message, split by scope. A value equal to
 * {@link #REMOVED} deletes the key.
 */
public record StateDelta(Map<String, Object> session, Map<String, Object> app, Map<String, Object> user) {

    /** Sentinel value: remove the key. */
    public static final Object REMOVED = new Object() {
        @Override
        public String toString() {
            return "<removed>";
        }
    };

    public static final StateDelta NONE = new StateDelta(Map.of(), Map.of(), Map.of());

    public boolean isEmpty() {
        return session.isEmpty() && app.isEmpty() && user.isEmpty();
    }
}
