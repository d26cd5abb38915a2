package ai.lango.graph;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** graph_traverse: the facts around a node, both ways along its relations, to a depth. */
final class GraphTraverse extends DeclaredTool {

    static final int DEFAULT_DEPTH = 2;

    private final GraphStore store;

    GraphTraverse(GraphStore store) {
        super(ToolFamily.GRAPH, "graph_traverse", Safety.SAFE, "Walk the knowledge graph from a node, both ways along its"
                + " relations, to a depth (" + DEFAULT_DEPTH + " by default, at most " + GraphStore.MAX_DEPTH + "); every fact"
                + " once, at most " + GraphStore.MAX_RESULTS + ".", schema());
        this.store = store;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("start_node", ToolArgs.string("Where to start, e.g. \"knowledge:deploy-branch\"."));
        properties.put("max_depth", ToolArgs.integer("How many steps away, " + DEFAULT_DEPTH + " by default."));
        properties.put("predicates", ToolArgs.stringArray("Only along these relations; all by default."));
        return ToolArgs.schema(properties, List.of("start_node"));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String start = ToolArgs.required(args, "start_node");
        int depth = ToolArgs.integer(args, "max_depth", DEFAULT_DEPTH, 1, GraphStore.MAX_DEPTH);
        return GraphToolset.result(store.traverse(start, depth, ToolArgs.strings(args, "predicates"), GraphStore.MAX_RESULTS,
                GraphToolset.visible(caller)).triples());
    }
}
