package ai.lango.adk.sessions;

import ai.lango.session.StateDelta;
import com.google.adk.sessions.State;
import java.util.HashMap;
import java.util.Map;

/** ADK's state-key conventions: "app:" and "user:" keys are shared, "temp:" keys are never kept. */
final class StateScopes {

    private StateScopes() {
    }

    /** Splits an ADK state delta by scope, prefixes stripped, temp: keys dropped, State.REMOVED mapped. */
    static StateDelta split(Map<String, Object> adkDelta) {
        Map<String, Object> session = new HashMap<>();
        Map<String, Object> app = new HashMap<>();
        Map<String, Object> user = new HashMap<>();
        adkDelta.forEach((key, value) -> {
            Object stored = value == State.REMOVED ? StateDelta.REMOVED : value;
            if (key.startsWith(State.TEMP_PREFIX)) {
                return;
            }
            if (key.startsWith(State.APP_PREFIX)) {
                app.put(key.substring(State.APP_PREFIX.length()), stored);
            } else if (key.startsWith(State.USER_PREFIX)) {
                user.put(key.substring(State.USER_PREFIX.length()), stored);
            } else {
                session.put(key, stored);
            }
        });
        return new StateDelta(session, app, user);
    }

    /** The in-memory half of ADK's appendEvent: apply the delta to the live state, temp: keys excluded. */
    static void applyTo(Map<String, Object> state, Map<String, Object> adkDelta) {
        adkDelta.forEach((key, value) -> {
            if (key.startsWith(State.TEMP_PREFIX)) {
                return;
            }
            if (value == State.REMOVED) {
                state.remove(key);
            } else if (value != null) {
                state.put(key, value);
            }
        });
    }
}
