package ai.lango.memory;

import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
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
     * @param context      the prompt: what an earlier section already shows is left out, what this one shows is noted
     * @return the section, or "" when nothing fits
     */
    public static String render(List<StoredText> reflections, List<StoredText> observations, int budget,
                                PromptContext context) {
        List<StoredText> keptReflections = fitNewest(newest(unshown(reflections, context), MAX_REFLECTIONS),
                kept -> layout(kept, List.of()), budget);
        List<StoredText> keptObservations = fitNewest(newest(unshown(observations, context), MAX_OBSERVATIONS),
                kept -> layout(keptReflections, kept), budget);
        keptReflections.forEach(r -> context.showing(r.id()));
        keptObservations.forEach(o -> context.showing(o.id()));
        return layout(keptReflections, keptObservations);
    }

    private static List<StoredText> unshown(List<StoredText> facts, PromptContext context) {
        return facts.stream().filter(f -> !context.alreadyShown(f.id())).toList();
    }

    public static StoredText fact(Observation o) {
        return new StoredText("observation:" + o.id(), "observation " + o.id() + " of this conversation, of messages "
                + o.firstMessageId() + " to " + o.lastMessageId() + ", made " + o.createdAt().toString().substring(0, 16),
                o.content());
    }

    public static StoredText fact(Reflection r) {
        return new StoredText("reflection:" + r.id(), "reflection " + r.id() + " of this conversation (generation "
                + r.generation() + "), made " + r.createdAt().toString().substring(0, 16), r.content());
    }

    /**
     * Walks newest to oldest, keeping items while the whole section with them stays within the
     * budget (estimated whole: estimating pieces would round each down and overshoot); stops at the
     * first that does not fit. Returns the kept items oldest first.
     */
    private static List<StoredText> fitNewest(List<StoredText> oldestFirst, Function<List<StoredText>, String> section,
                                              int budget) {
        Deque<StoredText> kept = new ArrayDeque<>();
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
    private static String layout(List<StoredText> reflections, List<StoredText> observations) {
        if (reflections.isEmpty() && observations.isEmpty()) {
            return "";
        }
        StringBuilder section = new StringBuilder(TITLE).append('\n');
        if (!reflections.isEmpty()) {
            section.append('\n').append(SUMMARY).append('\n');
            reflections.forEach(r -> section.append('\n').append(r.render()));
        }
        if (!observations.isEmpty()) {
            section.append('\n').append(RECENT).append('\n');
            observations.forEach(o -> section.append('\n').append(o.render()));
        }
        return section.toString();
    }

    private static List<StoredText> newest(List<StoredText> oldestFirst, int max) {
        return oldestFirst.subList(Math.max(0, oldestFirst.size() - max), oldestFirst.size());
    }
}
