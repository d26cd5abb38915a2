package ai.lango.session;

import java.util.List;
import java.util.OptionalInt;

/**
 * Token-budget truncation of a history. Keeps the newest messages that fit, never fewer than one
 * before the rule below, and — only when something was cut — starts the kept part at a user
 * message: Anthropic expects a conversation to open with the user, and Gemini refuses a function
 * call that follows neither a user turn nor a function response. A cut that keeps no user message
 * keeps nothing; the user message the runner appends next then opens the conversation.
 */
public final class HistoryTruncation {

    /** The budget when none is configured and the model's family gives none. */
    public static final int DEFAULT_BUDGET = 32000;

    private HistoryTruncation() {
    }

    /** A configured budget (&gt; 0) wins; then the model family's; then the default. */
    public static int budget(int configured, OptionalInt family) {
        return configured > 0 ? configured : family.orElse(DEFAULT_BUDGET);
    }

    /**
     * @param chronological oldest first
     * @param budget        tokens; ≤ 0 means {@link #DEFAULT_BUDGET}
     */
    public static List<Message> truncate(List<Message> chronological, int budget) {
        int start = fittingStart(chronological, budget);
        if (start == 0) {
            return chronological;
        }
        int end = chronological.size();
        while (start < end && !Roles.isUser(chronological.get(start).role())) {
            start++;
        }
        return chronological.subList(start, end);
    }

    /**
     * Where the newest messages that fit {@code budget} begin (the newest always counts as
     * fitting): 0 when all of them fit.
     */
    static int fittingStart(List<Message> chronological, int budget) {
        int limit = budget > 0 ? budget : DEFAULT_BUDGET;
        int start = chronological.size();
        long used = 0;
        while (start > 0) {
            int tokens = TokenEstimator.messageTokens(chronological.get(start - 1));
            boolean newest = start == chronological.size();
            if (!newest && used + tokens > limit) {
                break;
            }
            used += tokens;
            start--;
        }
        return start;
    }
}
