package ai.lango.memory;

import ai.lango.session.TokenEstimator;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * The memory section of the system prompt: what the session remembers beyond its history window.
 * Reflections (denser) are fitted first, then observations fill what is left of the budget; within
 * each kind the newest are kept when not all fit, and they are written oldest first. The whole
 * section, headers included, stays within the budget (the token estimate of history); nothing fits,
 * nothing is written — never an empty header.
 */
public final class MemorySection {

    public static final String TITLE = "## Conversation Memory";
    static final String SUMMARY = "### Summary";
    static final String RECENT = "### Recent Observations";
    /** At most this many of the newest reflections and observations are considered. */
    public static final int MAX_REFLECTIONS = 5;
    public static final int MAX_OBSERVATIONS = 20;

    private MemorySection() {
    }

    /**
     * @param reflections  the session's unfolded reflections, oldest first
     * @param observations the session's unfolded observations, oldest first
     * @param budget       tokens the section may take
     * @return the section, or "" when nothing fits
     */
    public static String render(List<String> reflections, List<String> observations, int budget) {
        List<String> keptReflections = fitNewest(newest(reflections, MAX_REFLECTIONS), kept -> layout(kept, List.of()), budget);
        List<String> keptObservations = fitNewest(newest(observations, MAX_OBSERVATIONS),
                kept -> layout(keptReflections, kept), budget);
        return layout(keptReflections, keptObservations);
    }

    /**
     * Walks newest to oldest, keeping items while the whole section with them stays within the
     * budget (estimated whole: estimating pieces would round each down and overshoot); stops at the
     * first that does not fit. Returns the kept items oldest first.
     */
    private static List<String> fitNewest(List<String> oldestFirst, Function<List<String>, String> section, int budget) {
        Deque<String> kept = new ArrayDeque<>();
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            kept.addFirst(oldestFirst.get(i));
            if (TokenEstimator.estimate(section.apply(List.copyOf(kept))) > budget) {
                kept.removeFirst();
                break;
            }
        }
        return List.copyOf(kept);
    }

    /** The section's text; "" when there is nothing in it. */
    private static String layout(List<String> reflections, List<String> observations) {
        if (reflections.isEmpty() && observations.isEmpty()) {
            return "";
        }
        StringBuilder section = new StringBuilder(TITLE).append('\n');
        if (!reflections.isEmpty()) {
            section.append('\n').append(SUMMARY).append('\n');
            reflections.forEach(r -> section.append(r).append('\n'));
        }
        if (!observations.isEmpty()) {
            section.append('\n').append(RECENT).append('\n');
            observations.forEach(o -> section.append("- ").append(o).append('\n'));
        }
        return section.toString();
    }

    private static List<String> newest(List<String> oldestFirst, int max) {
        return oldestFirst.subList(Math.max(0, oldestFirst.size() - max), oldestFirst.size());
    }
}
