package ai.lango.session;

import java.util.List;

/**
 * Token-budget truncation of a history. Keeps the newest messages that fit, never fewer than one,
 * and — only when something was cut — never lets the result start with a tool response or with a
 * function call whose response was cut away.
 */
public final class HistoryTruncation {

    private HistoryTruncation() {
    }

    /**
     * @param chronological oldest first
     * @param budget        tokens; ≤ 0 means {@link TokenBudgets#DEFAULT_BUDGET}
     */
    public static List<Message> truncate(List<Message> chronological, int budget) {
        int limit = budget > 0 ? budget : TokenBudgets.DEFAULT_BUDGET;
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
        if (start == 0) {
            return chronological;
        }
        // Something was cut: make the kept part start where a model can read it.
        int end = chronological.size();
        while (start < end && Roles.isTool(chronological.get(start).role())) {
            start++;
        }
        if (start < end && orphanedCall(chronological, start)) {
            start++;
        }
        return chronological.subList(start, end);
    }

    private static boolean orphanedCall(List<Message> messages, int index) {
        Message first = messages.get(index);
        if (!Roles.isAssistant(first.role()) || !first.hasToolCalls()) {
            return false;
        }
        return index + 1 >= messages.size() || !Roles.isTool(messages.get(index + 1).role());
    }
}
