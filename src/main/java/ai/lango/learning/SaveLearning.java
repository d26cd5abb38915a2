package ai.lango.learning;

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

/** save_learning: a fix for a diagnosed error, the caller's (see {@link Ownership}). */
final class SaveLearning extends DeclaredTool {

    private final LangoSettings.Knowledge settings;
    private final LearningStore store;
    private final Ownership ownership;

    SaveLearning(LangoSettings.Knowledge settings, LearningStore store, Ownership ownership) {
        super(ToolFamily.LEARNING, "save_learning", Safety.SAFE, "Save a fix for an error you diagnosed, so it can be applied"
                + " when the error happens again. A saved fix is applied by itself only once successes have confirmed it.",
                schema());
        this.settings = settings;
        this.store = store;
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("trigger", ToolArgs.string("When it applies, e.g. \"tool:exec\"."));
        properties.put("fix", ToolArgs.string("What to do instead."));
        properties.put("error_pattern", ToolArgs.string("The error's text, as it reads."));
        properties.put("diagnosis", ToolArgs.string("Why the error happens."));
        properties.put("category", ToolArgs.oneOf(ErrorPatterns.CATEGORIES, "The error's kind; general by default."));
        return ToolArgs.schema(properties, List.of("trigger", "fix"));
    }

    /** What it writes is kept: a secret's reference stays as text. */
    @Override
    public boolean keepsText() {
        return true;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String trigger = ToolArgs.required(args, "trigger").strip();
        if (trigger.length() > 255) {
            throw new ToolException("parameter \"trigger\" must be at most 255 characters");
        }
        String category = ToolArgs.optional(args, "category");
        if (category != null && !ErrorPatterns.CATEGORIES.contains(category)) {
            throw new ToolException("parameter \"category\" must be one of " + ErrorPatterns.CATEGORIES);
        }
        String pattern = ToolArgs.optional(args, "error_pattern");
        String fix = ToolArgs.required(args, "fix", settings.maxEntryChars(), Keys.KNOWLEDGE_MAX_ENTRY_CHARS.key());
        String diagnosis = ToolArgs.optional(args, "diagnosis", settings.maxEntryChars(), Keys.KNOWLEDGE_MAX_ENTRY_CHARS.key());
        store.saveFix(ownership.ownerOf(caller), trigger,
                pattern == null ? "" : ErrorPatterns.pattern(pattern), fix, diagnosis,
                category == null ? ErrorPatterns.GENERAL : category);
        return Map.of("status", "saved", "message", "Learning saved: " + trigger);
    }
}
