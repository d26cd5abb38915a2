package ai.lango.knowledge;

import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.security.Ownership;
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
 * save_knowledge and search_knowledge, with the parameter names and result shapes of the system
 * Lango follows (result keys capitalised as it wrote them). The researcher's in multi-agent mode.
 * What a user's model saves is that user's (see {@link Ownership}); a search finds the user's own
 * and the shared entries, each marked as which.
 */
@ApplicationScoped
public class KnowledgeToolset implements Toolset {

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    KnowledgeStore store;

    @Inject
    Ownership ownership;

    @Override
    public String name() {
        return "knowledge";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 40;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Save(), new Search());
    }

    private final class Save implements Tool {
        @Override
        public String name() {
            return "save_knowledge";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Save something the user taught you (a rule, definition, preference, fact, pattern or correction)"
                    + " under a unique key; saving an existing key replaces it. It is kept for this user.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("key", ToolArgs.string("A short unique key, e.g. \"deploy-branch\"."));
            properties.put("category", ToolArgs.oneOf(KnowledgeEntry.CATEGORIES, "What kind of knowledge this is."));
            properties.put("content", ToolArgs.string("The knowledge itself."));
            properties.put("tags", ToolArgs.stringArray("Words to find it by."));
            properties.put("source", ToolArgs.string("Where it came from, e.g. \"user\"."));
            return ToolArgs.schema(properties, List.of("key", "category", "content"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String key = ToolArgs.required(args, "key").strip();
            String category = ToolArgs.required(args, "category");
            if (!KnowledgeEntry.knownCategory(category)) {
                throw new ToolException("parameter \"category\" must be one of " + KnowledgeEntry.CATEGORIES);
            }
            if (key.length() > 255) {
                throw new ToolException("parameter \"key\" must be at most 255 characters");
            }
            String content = ToolArgs.required(args, "content", settings.maxEntryChars(), Keys.KNOWLEDGE_MAX_ENTRY_CHARS.key());
            String owner = caller == null ? Ownership.SHARED : ownership.ownerOf(caller.userId());
            store.save(KnowledgeEntry.of(key, category, content, ToolArgs.strings(args, "tags"), ToolArgs.optional(args, "source"))
                    .ownedBy(owner));
            return Map.of("status", "saved", "key", key, "message", "Knowledge saved: " + key);
        }
    }

    private final class Search implements Tool {
        @Override
        public String name() {
            return "search_knowledge";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Search the knowledge the user taught you and the knowledge shared with every user, by words; at most "
                    + KnowledgeStore.SEARCH_LIMIT + " results.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("query", ToolArgs.string("Words to look for."));
            properties.put("category", ToolArgs.oneOf(KnowledgeEntry.CATEGORIES, "Only knowledge of this category."));
            return ToolArgs.schema(properties, List.of("query"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
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
}
