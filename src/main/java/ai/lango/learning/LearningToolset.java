package ai.lango.learning;

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
import java.util.TreeMap;

/**
 * save_learning, search_learnings and learning_stats, with the parameter names and result shapes of
 * the system Lango follows (result keys capitalised as it wrote them). The researcher's in
 * multi-agent mode. What a user's model saves is that user's (see {@link Ownership}); searches and
 * statistics cover the user's own and the shared learnings.
 */
@ApplicationScoped
public class LearningToolset implements Toolset {

    /** Learnings learning_stats reads at most. */
    static final int STATS_LIMIT = 10_000;

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    LearningStore store;

    @Inject
    Ownership ownership;

    @Override
    public String name() {
        return "learning";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 45;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Save(), new Search(), new Stats());
    }

    private static List<String> visible(Caller caller) {
        return Ownership.visibleTo(caller == null ? null : caller.userId());
    }

    /** A learning as the tools show it. */
    static Map<String, Object> json(Learning l) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("ID", l.id());
        item.put("Trigger", l.trigger());
        item.put("ErrorPattern", l.errorPattern());
        item.put("Diagnosis", l.diagnosis());
        item.put("Fix", l.fix());
        item.put("Category", l.category());
        item.put("Confidence", Math.round(l.confidence() * 1000) / 1000.0);
        item.put("OccurrenceCount", l.occurrences());
        item.put("SuccessCount", l.successes());
        item.put("FailureCount", l.failures());
        item.put("Shared", l.shared());
        return item;
    }

    private final class Save implements Tool {
        @Override
        public String name() {
            return "save_learning";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Save a fix for an error you diagnosed, so it can be applied when the error happens again."
                    + " A saved fix is applied by itself only once successes have confirmed it.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("trigger", ToolArgs.string("When it applies, e.g. \"tool:exec\"."));
            properties.put("fix", ToolArgs.string("What to do instead."));
            properties.put("error_pattern", ToolArgs.string("The error's text, as it reads."));
            properties.put("diagnosis", ToolArgs.string("Why the error happens."));
            properties.put("category", ToolArgs.oneOf(ErrorPatterns.CATEGORIES, "The error's kind; general by default."));
            return ToolArgs.schema(properties, List.of("trigger", "fix"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
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
            store.saveFix(caller == null ? Ownership.SHARED : ownership.ownerOf(caller.userId()), trigger, pattern == null ? "" : ErrorPatterns.pattern(pattern), fix,
                    diagnosis, category == null ? ErrorPatterns.GENERAL : category);
            return Map.of("status", "saved", "message", "Learning saved: " + trigger);
        }
    }

    private final class Search implements Tool {
        @Override
        public String name() {
            return "search_learnings";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Search what was learned from errors and their fixes, by words; most confident first, at most "
                    + LearningStore.SEARCH_LIMIT + ".";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("query", ToolArgs.string("Words to look for."));
            properties.put("category", ToolArgs.oneOf(ErrorPatterns.CATEGORIES, "Only learnings of this kind."));
            return ToolArgs.schema(properties, List.of("query"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            List<Map<String, Object>> results = store.search(ToolArgs.required(args, "query"),
                    ToolArgs.optional(args, "category"), LearningStore.SEARCH_LIMIT, visible(caller)).stream().map(LearningToolset::json).toList();
            return Map.of("results", results, "count", results.size());
        }
    }

    private final class Stats implements Tool {
        @Override
        public String name() {
            return "learning_stats";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "How many learnings there are, by category, how many have a fix and how many are confident enough"
                    + " to be applied by themselves.";
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(Map.of(), List.of());
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) {
            return call(args, null);
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) {
            List<Learning> all = store.all(visible(caller), 0, STATS_LIMIT);
            Map<String, Integer> byCategory = new TreeMap<>();
            all.forEach(l -> byCategory.merge(l.category(), 1, Integer::sum));
            Map<String, Object> stats = new LinkedHashMap<>();
            stats.put("total", all.size());
            stats.put("byCategory", byCategory);
            stats.put("withFix", all.stream().filter(Learning::hasFix).count());
            stats.put("applicable", all.stream().filter(l -> Confidence.applies(l.confidence(), l.fix())).count());
            stats.put("averageConfidence", all.isEmpty() ? 0.0
                    : Math.round(all.stream().mapToDouble(Learning::confidence).average().orElse(0) * 1000) / 1000.0);
            return stats;
        }
    }
}
