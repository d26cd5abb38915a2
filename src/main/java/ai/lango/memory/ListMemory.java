package ai.lango.memory;

import ai.lango.config.Ids;
import ai.lango.session.SessionStore;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.turn.SessionRef;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A listing tool (memory_list_observations, memory_list_reflections): the items of one kind that
 * a session of the calling user remembers now, the current session unless {@code session_key}
 * names another of the same user's sessions.
 */
final class ListMemory extends DeclaredTool {

    static final String SESSION_KEY = "session_key";

    private final String field;
    private final Function<MemoryStore.Contents, List<Map<String, Object>>> items;
    private final MemoryStore store;
    private final SessionStore sessions;

    ListMemory(String name, String description, String field, Function<MemoryStore.Contents, List<Map<String, Object>>> items,
               MemoryStore store, SessionStore sessions) {
        super(ToolFamily.MEMORY, name, Safety.SAFE, description, Map.of("type", "object", "properties", Map.of(SESSION_KEY,
                Map.of("type", "string", "description", "The session whose memory to list; the current session when omitted.")),
                "required", List.of()));
        this.field = field;
        this.items = items;
        this.store = store;
        this.sessions = sessions;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        if (caller == null) {
            throw new ToolException("tool \"" + name() + "\" needs to know the calling session");
        }
        Object requested = args.get(SESSION_KEY);
        if (requested != null && !(requested instanceof String)) {
            throw new ToolException("parameter \"" + SESSION_KEY + "\" must be a string");
        }
        String key = requested == null || ((String) requested).isBlank() ? caller.sessionKey() : (String) requested;
        SessionRef session = SessionRef.of(caller.userId(), key);
        // The model's choice of key is checked as a client's would be; only the caller's own sessions exist for it.
        if (!Ids.valid(key) || sessions.find(session).isEmpty()) {
            throw new ToolException("no session \"" + key + "\"");
        }
        List<Map<String, Object>> listed = items.apply(store.active(session));
        return Map.of(field, listed, "count", listed.size());
    }
}
