package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * save_learning, search_learnings and learning_stats, with the parameter names and result shapes of
 * the system Lango follows (result keys capitalised as it wrote them). The researcher's in
 * multi-agent mode. What a user's model saves is that user's (see {@link Ownership}); searches and
 * statistics cover the user's own and the shared learnings.
 */
@ApplicationScoped
public class LearningToolset implements Toolset {

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
        return List.of(new SaveLearning(settings, store, ownership), new SearchLearnings(store), new LearningStats(store));
    }

    /** Whose learnings a caller sees: their own and the shared ones. */
    static List<String> visible(Caller caller) {
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
}
