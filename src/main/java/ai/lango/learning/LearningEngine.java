package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.security.Ownership;
import ai.lango.turn.TurnCompleted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Learns from every tool result of every turn, after the turn (the after-turn event, off the
 * request path), for the turn's user (see {@link Ownership}). An error that no learning the user
 * sees with confidence over 0.7 already covers is recorded under {@code tool:<name>} with no fix
 * yet (or counted again on the user's learning that has it); a success confirms the user's own
 * learnings whose trigger is exactly {@code tool:<name>} — {@code exec} never confirms
 * {@code exec_bg}; what is shared moves only with an administrator's turns. The tools that manage knowledge, learnings and memory are not
 * observed: their results say nothing about the user's work.
 */
@ApplicationScoped
public class LearningEngine {

    private static final Logger LOG = MaskedLogs.of(LearningEngine.class);

    /** Tools whose results are not evidence: they read and write what the agent knows. */
    static final List<String> NOT_OBSERVED = List.of("save_", "search_", "learning_", "memory_", "rag_", "graph_",
            "loadMemory", "transfer_to_agent");

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    LearningStore store;

    @Inject
    Ownership ownership;

    void afterTurn(@ObservesAsync TurnCompleted turn) {
        if (!settings.enabled()) {
            return;
        }
        String owner = ownership.ownerOf(turn.userId(), turn.admin());
        for (TurnCompleted.ToolOutcome tool : turn.tools()) {
            try {
                observe(owner, Ownership.visibleTo(turn.userId()), tool);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "learning from tool " + tool.name() + " failed: " + e.getMessage(), e);
            }
        }
    }

    void observe(String owner, List<String> visible, TurnCompleted.ToolOutcome tool) {
        if (!observed(tool.name())) {
            return;
        }
        String trigger = Learning.toolTrigger(tool.name());
        if (tool.error().isEmpty()) {
            store.succeeded(owner, trigger);
            return;
        }
        String error = tool.error().get();
        String pattern = ErrorPatterns.pattern(error);
        boolean known = !store.matchingError(pattern, Confidence.APPLY_THRESHOLD, false, visible).isEmpty();
        if (!known) {
            store.occurred(owner, trigger, pattern, error, ErrorPatterns.category(error, tool.name()));
        }
    }

    static boolean observed(String toolName) {
        return NOT_OBSERVED.stream().noneMatch(toolName::startsWith);
    }
}
