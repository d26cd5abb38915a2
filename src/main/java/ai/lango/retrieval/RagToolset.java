package ai.lango.retrieval;

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
 * rag_retrieve: hybrid search over knowledge, learnings and the current session's observations and
 * reflections. There whenever retrieval is (always: the default embedding model runs in the server).
 */
@ApplicationScoped
public class RagToolset implements Toolset {

    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    @Inject
    Retrieval retrieval;

    @Override
    public String name() {
        return "rag";
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Retrieve());
    }

    private final class Retrieve implements Tool {
        @Override
        public String name() {
            return "rag_retrieve";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Find what is stored that relates to a question, by meaning and by words: knowledge the user taught you,"
                    + " learned fixes, and this session's observations and reflections. Best first.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("query", ToolArgs.string("What to look for, in your own words."));
            properties.put("limit", ToolArgs.integer("How many results, " + DEFAULT_LIMIT + " by default, at most " + MAX_LIMIT + "."));
            properties.put("collections", ToolArgs.stringArray("Only these of " + Document.COLLECTIONS + "; all by default."));
            return ToolArgs.schema(properties, List.of("query"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, new Caller(null, null));
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
            List<Map<String, Object>> results = retrieval.search(query, limit, collections, caller.session()).stream()
                    .map(hit -> {
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
}
