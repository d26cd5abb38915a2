package ai.lango.graph;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
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

    static final int DEFAULT_DEPTH = 2;

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
        return List.of(new Query(), new Traverse());
    }

    private static java.util.Set<String> visible(Caller caller) {
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

    private final class Query implements Tool {
        @Override
        public String name() {
            return "graph_query";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Look up facts in the knowledge graph by subject and/or object (and predicate), e.g. what a thing is"
                    + " related to or caused by; at most " + GraphStore.MAX_RESULTS + " triples.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("subject", ToolArgs.string("The node the facts are about, e.g. \"knowledge:deploy-branch\" or a name."));
            properties.put("predicate", ToolArgs.oneOf(Predicates.ALL, "Only facts of this relation."));
            properties.put("object", ToolArgs.string("The node the facts point to."));
            return ToolArgs.schema(properties, List.of());
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String subject = ToolArgs.optional(args, "subject");
            String object = ToolArgs.optional(args, "object");
            if (subject == null && object == null) {
                throw new ToolException("give \"subject\" or \"object\" (or both)");
            }
            return result(store.query(subject, ToolArgs.optional(args, "predicate"), object, visible(caller)));
        }
    }

    private final class Traverse implements Tool {
        @Override
        public String name() {
            return "graph_traverse";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Walk the knowledge graph from a node, both ways along its relations, to a depth (" + DEFAULT_DEPTH
                    + " by default, at most " + GraphStore.MAX_DEPTH + "); every fact once, at most " + GraphStore.MAX_RESULTS + ".";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("start_node", ToolArgs.string("Where to start, e.g. \"knowledge:deploy-branch\"."));
            properties.put("max_depth", ToolArgs.integer("How many steps away, " + DEFAULT_DEPTH + " by default."));
            properties.put("predicates", ToolArgs.stringArray("Only along these relations; all by default."));
            return ToolArgs.schema(properties, List.of("start_node"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String start = ToolArgs.required(args, "start_node");
            int depth = ToolArgs.integer(args, "max_depth", DEFAULT_DEPTH, 1, GraphStore.MAX_DEPTH);
            return result(store.traverse(start, depth, ToolArgs.strings(args, "predicates"), GraphStore.MAX_RESULTS,
                    visible(caller)).triples());
        }
    }
}
