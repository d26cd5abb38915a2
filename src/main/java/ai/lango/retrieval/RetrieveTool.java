package ai.lango.retrieval;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** rag_retrieve: hybrid search over knowledge, learnings and the current session's observations and reflections. */
final class RetrieveTool extends DeclaredTool {

    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    private final Retrieval retrieval;

    RetrieveTool(Retrieval retrieval) {
        super(ToolFamily.RAG, "rag_retrieve", Safety.SAFE, "Find what is stored that relates to a question, by meaning and by"
                + " words: knowledge the user taught you, learned fixes, and this session's observations and reflections."
                + " Best first.", schema());
        this.retrieval = retrieval;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("query", ToolArgs.string("What to look for, in your own words."));
        properties.put("limit", ToolArgs.integer("How many results, " + DEFAULT_LIMIT + " by default, at most " + MAX_LIMIT + "."));
        properties.put("collections", ToolArgs.stringArray("Only these of " + Document.COLLECTIONS + "; all by default."));
        return ToolArgs.schema(properties, List.of("query"));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String query = ToolArgs.required(args, "query");
        int limit = ToolArgs.integer(args, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        List<String> collections = ToolArgs.strings(args, "collections");
        for (String c : collections) {
            if (!Document.COLLECTIONS.contains(c)) {
                throw new ToolException("parameter \"collections\" may hold only " + Document.COLLECTIONS + ", not \"" + c + "\"");
            }
        }
        List<Map<String, Object>> results = retrieval.search(query, limit, collections, caller == null ? null : caller.session())
                .stream().map(hit -> {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("collection", hit.collection());
                    item.put("sourceId", hit.sourceId());
                    if (!Document.SESSION_SCOPED.contains(hit.collection())) {
                        item.put("shared", hit.shared());
                    }
                    item.put("content", hit.content());
                    item.put("score", Math.round(hit.score() * 10_000) / 10_000.0);
                    return item;
                }).toList();
        return Map.of("results", results, "count", results.size());
    }
}
