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

/** graph_query: facts by subject and/or object (and predicate), among those the caller may read. */
final class GraphQuery extends DeclaredTool {

    private final GraphStore store;

    GraphQuery(GraphStore store) {
        super(ToolFamily.GRAPH, "graph_query", Safety.SAFE, "Look up facts in the knowledge graph by subject and/or object"
                + " (and predicate), e.g. what a thing is related to or caused by; at most " + GraphStore.MAX_RESULTS
                + " triples.", schema());
        this.store = store;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("subject", ToolArgs.string("The node the facts are about, e.g. \"knowledge:deploy-branch\" or a name."));
        properties.put("predicate", ToolArgs.oneOf(Predicates.ALL, "Only facts of this relation."));
        properties.put("object", ToolArgs.string("The node the facts point to."));
        return ToolArgs.schema(properties, List.of());
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String subject = ToolArgs.optional(args, "subject");
        String object = ToolArgs.optional(args, "object");
        if (subject == null && object == null) {
            throw new ToolException("give \"subject\" or \"object\" (or both)");
        }
        return GraphToolset.result(store.query(subject, ToolArgs.optional(args, "predicate"), object, GraphToolset.visible(caller)));
    }
}
