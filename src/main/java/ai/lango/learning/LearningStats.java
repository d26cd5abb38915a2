package ai.lango.learning;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** learning_stats: how many learnings the caller sees, by category, with a fix, confident enough to apply. */
final class LearningStats extends DeclaredTool {

    /** Learnings read at most. */
    static final int STATS_LIMIT = 10_000;

    private final LearningStore store;

    LearningStats(LearningStore store) {
        super(ToolFamily.LEARNING_STATS, "learning_stats", Safety.SAFE, "How many learnings there are, by category, how many"
                + " have a fix and how many are confident enough to be applied by themselves.", ToolArgs.schema(Map.of(), List.of()));
        this.store = store;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) {
        List<Learning> all = store.all(LearningToolset.visible(caller), 0, STATS_LIMIT);
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
