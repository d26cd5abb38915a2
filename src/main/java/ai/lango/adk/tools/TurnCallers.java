package ai.lango.adk.tools;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the turn running now in a session came with an administrator's credential: what a tool
 * call of that turn is told as its {@link ai.lango.tool.Caller}. ADK hands a tool the session, not
 * who sent the message, and a session runs one turn at a time, so the service notes it here for
 * the length of the turn.
 */
public final class TurnCallers {

    private final Map<String, Boolean> admins = new ConcurrentHashMap<>();

    /** The turn of session {@code scope} starts, with an administrator's credential or not. */
    public void begin(String scope, boolean admin) {
        admins.put(scope, admin);
    }

    /** The turn of session {@code scope} ended. */
    public void end(String scope) {
        admins.remove(scope);
    }

    /** Whether the turn running in {@code scope} is an administrator's (false when none is known). */
    public boolean admin(String scope) {
        return admins.getOrDefault(scope, false);
    }
}
