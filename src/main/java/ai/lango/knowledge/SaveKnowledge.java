package ai.lango.knowledge;

import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
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

/** save_knowledge: something the user taught, under a key of theirs (see {@link Ownership}). */
final class SaveKnowledge extends DeclaredTool {

    private final LangoSettings.Knowledge settings;
    private final KnowledgeStore store;
    private final Ownership ownership;

    SaveKnowledge(LangoSettings.Knowledge settings, KnowledgeStore store, Ownership ownership) {
        super(ToolFamily.KNOWLEDGE, "save_knowledge", Safety.SAFE, "Save something the user taught you (a rule, definition,"
                + " preference, fact, pattern or correction) under a unique key; saving an existing key replaces it. It is kept"
                + " for this user.", schema());
        this.settings = settings;
        this.store = store;
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("key", ToolArgs.string("A short unique key, e.g. \"deploy-branch\"."));
        properties.put("category", ToolArgs.oneOf(KnowledgeEntry.CATEGORIES, "What kind of knowledge this is."));
        properties.put("content", ToolArgs.string("The knowledge itself."));
        properties.put("tags", ToolArgs.stringArray("Words to find it by."));
        properties.put("source", ToolArgs.string("Where it came from, e.g. \"user\"."));
        return ToolArgs.schema(properties, List.of("key", "category", "content"));
    }

    /** What it writes is kept: a secret's reference stays as text. */
    @Override
    public boolean keepsText() {
        return true;
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
        String owner = ownership.ownerOf(caller);
        store.save(KnowledgeEntry.of(key, category, content, ToolArgs.strings(args, "tags"), ToolArgs.optional(args, "source"))
                .ownedBy(owner));
        return Map.of("status", "saved", "key", key, "message", "Knowledge saved: " + key);
    }
}
