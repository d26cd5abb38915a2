package ai.lango.knowledge;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** search_knowledge: the user's own and the shared knowledge, each marked as which (result keys as the system Lango follows wrote them). */
final class SearchKnowledge extends DeclaredTool {

    private final KnowledgeStore store;

    SearchKnowledge(KnowledgeStore store) {
        super(ToolFamily.SEARCH, "search_knowledge", Safety.SAFE, "Search the knowledge the user taught you and the knowledge"
                + " shared with every user, by words; at most " + KnowledgeStore.SEARCH_LIMIT + " results.", schema());
        this.store = store;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("query", ToolArgs.string("Words to look for."));
        properties.put("category", ToolArgs.oneOf(KnowledgeEntry.CATEGORIES, "Only knowledge of this category."));
        return ToolArgs.schema(properties, List.of("query"));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        List<KnowledgeEntry> found = store.search(ToolArgs.required(args, "query"), ToolArgs.optional(args, "category"),
                KnowledgeStore.SEARCH_LIMIT, Ownership.visibleTo(caller == null ? null : caller.userId()));
        store.countUse(found);
        List<Map<String, Object>> results = found.stream().map(e -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("Key", e.key());
            item.put("Category", e.category());
            item.put("Content", e.content());
            item.put("Tags", e.tags());
            item.put("Source", e.source() == null ? "" : e.source());
            item.put("Shared", e.shared());
            return item;
        }).toList();
        return Map.of("results", results, "count", results.size());
    }
}
