package ai.lango.learning;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** search_learnings: the caller's own and the shared learnings, most confident first. */
final class SearchLearnings extends DeclaredTool {

    private final LearningStore store;

    SearchLearnings(LearningStore store) {
        super(ToolFamily.SEARCH, "search_learnings", Safety.SAFE, "Search what was learned from errors and their fixes, by"
                + " words; most confident first, at most " + LearningStore.SEARCH_LIMIT + ".", schema());
        this.store = store;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("query", ToolArgs.string("Words to look for."));
        properties.put("category", ToolArgs.oneOf(ErrorPatterns.CATEGORIES, "Only learnings of this kind."));
        return ToolArgs.schema(properties, List.of("query"));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        List<Map<String, Object>> results = store.search(ToolArgs.required(args, "query"), ToolArgs.optional(args, "category"),
                LearningStore.SEARCH_LIMIT, LearningToolset.visible(caller)).stream().map(LearningToolset::json).toList();
        return Map.of("results", results, "count", results.size());
    }
}
