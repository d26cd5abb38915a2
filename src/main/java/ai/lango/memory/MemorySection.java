package ai.lango.memory;

import ai.lango.session.TokenEstimator;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

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
        int left = budget - TokenEstimator.estimate(TITLE + "\n");
        Deque<String> keptReflections = new ArrayDeque<>();
        int summaryHeader = TokenEstimator.estimate("\n" + SUMMARY + "\n");
        left = fitNewest(newest(reflections, MAX_REFLECTIONS), keptReflections, left, summaryHeader, false);
        Deque<String> keptObservations = new ArrayDeque<>();
        int recentHeader = TokenEstimator.estimate("\n" + RECENT + "\n");
        fitNewest(newest(observations, MAX_OBSERVATIONS), keptObservations, left, recentHeader, true);
        if (keptReflections.isEmpty() && keptObservations.isEmpty()) {
            return "";
        }
        StringBuilder section = new StringBuilder(TITLE).append('\n');
        if (!keptReflections.isEmpty()) {
            section.append('\n').append(SUMMARY).append('\n');
            keptReflections.forEach(r -> section.append(r).append('\n'));
        }
        if (!keptObservations.isEmpty()) {
            section.append('\n').append(RECENT).append('\n');
            keptObservations.forEach(o -> section.append("- ").append(o).append('\n'));
        }
        return section.toString();
    }

    /**
     * Walks newest to oldest, keeping items while they fit (the header is paid with the first);
     * stops at the first that does not. Returns the budget left.
     */
    private static int fitNewest(List<String> oldestFirst, Deque<String> kept, int left, int header, boolean bullet) {
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            String item = oldestFirst.get(i);
            int cost = TokenEstimator.estimate((bullet ? "- " : "") + item + "\n") + (kept.isEmpty() ? header : 0);
            if (cost > left) {
                break;
            }
            left -= cost;
            kept.addFirst(item);
        }
        return left;
    }

    private static List<String> newest(List<String> oldestFirst, int max) {
        return oldestFirst.subList(Math.max(0, oldestFirst.size() - max), oldestFirst.size());
    }
}
