package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.security.SharedWriters;
import ai.lango.turn.TurnCompleted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Learns from every tool result of every turn, after the turn (the after-turn event, off the
 * request path). An error that no learning with confidence over 0.7 already covers is recorded
 * under {@code tool:<name>} with no fix yet (or counted again on the learning that has it); a
 * success confirms the learnings whose trigger is exactly {@code tool:<name>} — {@code exec}
 * never confirms {@code exec_bg}. The tools that manage knowledge, learnings and memory are not
 * observed: their results say nothing about the user's work.
 */
@ApplicationScoped
public class LearningEngine {

    private static final Logger LOG = Logger.getLogger(LearningEngine.class.getName());

    /** Tools whose results are not evidence: they read and write what the agent knows. */
    static final List<String> NOT_OBSERVED = List.of("save_", "search_", "learning_", "memory_", "rag_", "graph_",
            "loadMemory", "transfer_to_agent");

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    LearningStore store;

    @Inject
    SharedWriters writers;

    void afterTurn(@ObservesAsync TurnCompleted turn) {
        // Learnings are every user's: a turn of a user who may not write them teaches nothing.
        if (!settings.enabled() || !writers.mayWrite(turn.userId())) {
            return;
        }
        for (TurnCompleted.ToolOutcome tool : turn.tools()) {
            try {
                observe(tool);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "learning from tool " + tool.name() + " failed: " + e.getMessage(), e);
            }
        }
    }

    void observe(TurnCompleted.ToolOutcome tool) {
        if (!observed(tool.name())) {
            return;
        }
        String trigger = Learning.toolTrigger(tool.name());
        if (tool.error().isEmpty()) {
            store.succeeded(trigger);
            return;
        }
        String error = tool.error().get();
        String pattern = ErrorPatterns.pattern(error);
        boolean known = !store.matchingError(pattern, Confidence.APPLY_THRESHOLD, false).isEmpty();
        if (!known) {
            store.occurred(trigger, pattern, error, ErrorPatterns.category(error, tool.name()));
        }
    }

    static boolean observed(String toolName) {
        return NOT_OBSERVED.stream().noneMatch(toolName::startsWith);
    }
}
