package ai.lango.memory;

import ai.lango.config.Ids;
import ai.lango.config.LangoSettings;
import ai.lango.session.SessionStore;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolException;
import ai.lango.tool.Toolset;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * memory_list_observations and memory_list_reflections, with lango.memory.enabled=true: what a
 * session of the calling user remembers now (the items offered to the model), the current session
 * unless {@code session_key} names another of the same user's sessions. In multi-agent mode they
 * make the memory-manager sub-agent.
 */
@ApplicationScoped
public class MemoryToolset implements Toolset {

    static final String LIST_OBSERVATIONS = "memory_list_observations";
    static final String LIST_REFLECTIONS = "memory_list_reflections";
    static final String SESSION_KEY = "session_key";

    @Inject
    LangoSettings.Memory settings;

    @Inject
    MemoryStore store;

    @Inject
    SessionStore sessions;

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 50;
    }

    @Override
    public List<Tool> tools() {
        return List.of(
                new ListTool(LIST_OBSERVATIONS, "List the observations (compressed notes of earlier messages) that a"
                        + " session's memory holds now, oldest first.", "observations",
                        contents -> contents.observations().stream().map(MemoryToolset::json).toList()),
                new ListTool(LIST_REFLECTIONS, "List the reflections (summaries folded from observations or earlier"
                        + " reflections) that a session's memory holds now, oldest first.", "reflections",
                        contents -> contents.reflections().stream().map(MemoryToolset::json).toList()));
    }

    /** An observation as the tools and the admin API show it. */
    public static Map<String, Object> json(Observation o) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", o.id());
        item.put("content", o.content());
        item.put("tokens", o.tokens());
        item.put("createdAt", o.createdAt().toString());
        item.put("firstMessageId", o.firstMessageId());
        item.put("lastMessageId", o.lastMessageId());
        return item;
    }

    /** A reflection as the tools and the admin API show it. */
    public static Map<String, Object> json(Reflection r) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", r.id());
        item.put("content", r.content());
        item.put("tokens", r.tokens());
        item.put("createdAt", r.createdAt().toString());
        item.put("generation", r.generation());
        return item;
    }

    /** One listing tool: the items of one kind from a session's active memory. */
    private final class ListTool implements Tool {

        private final String name;
        private final String description;
        private final String field;
        private final Function<MemoryStore.Contents, List<Map<String, Object>>> items;

        ListTool(String name, String description, String field,
                 Function<MemoryStore.Contents, List<Map<String, Object>>> items) {
            this.name = name;
            this.description = description;
            this.field = field;
            this.items = items;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public Map<String, Object> parameters() {
            return Map.of("type", "object", "properties", Map.of(SESSION_KEY, Map.of("type", "string",
                    "description", "The session whose memory to list; the current session when omitted.")),
                    "required", List.of());
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            throw new ToolException("tool \"" + name + "\" needs to know the calling session");
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
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
}
