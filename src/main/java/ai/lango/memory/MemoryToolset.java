package ai.lango.memory;

import ai.lango.config.LangoSettings;
import ai.lango.session.SessionStore;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
                new ListMemory(LIST_OBSERVATIONS, "List the observations (compressed notes of earlier messages) that a"
                        + " session's memory holds now, oldest first.", "observations",
                        contents -> contents.observations().stream().map(MemoryToolset::json).toList(), store, sessions),
                new ListMemory(LIST_REFLECTIONS, "List the reflections (summaries folded from observations or earlier"
                        + " reflections) that a session's memory holds now, oldest first.", "reflections",
                        contents -> contents.reflections().stream().map(MemoryToolset::json).toList(), store, sessions));
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
}
