package ai.lango.graph;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * graph_query and graph_traverse, with lango.graph.enabled; the researcher's in multi-agent mode.
 * They read what is shared and what is the caller's own (its knowledge, its session's memory).
 */
@ApplicationScoped
public class GraphToolset implements Toolset {

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    GraphStore store;

    @Override
    public String name() {
        return "graph";
    }

    @Override
    public boolean enabled() {
        return settings.graphEnabled();
    }

    @Override
    public int order() {
        return 70;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new GraphQuery(store), new GraphTraverse(store));
    }

    /** What a caller may read: the shared facts and those of its own knowledge and session. */
    static java.util.Set<String> visible(Caller caller) {
        return GraphStore.visibleTo(caller == null ? null : caller.session());
    }

    /** The tools' result: the triples and how many. */
    public static Map<String, Object> result(List<Triple> triples) {
        List<Map<String, Object>> items = triples.stream().map(t -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("subject", t.subject());
            item.put("predicate", t.predicate());
            item.put("object", t.object());
            item.put("metadata", t.metadata());
            return item;
        }).toList();
        return Map.of("triples", items, "count", items.size());
    }
}
