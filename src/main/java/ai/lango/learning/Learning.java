package ai.lango.learning;

import ai.lango.knowledge.Keywords;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A learning: whose it is ({@code owner}, a user's id, or {@link ai.lango.security.Ownership#SHARED}),
 * what goes wrong ({@code trigger}, e.g. {@code tool:fs_read}, and the error's pattern), what was
 * diagnosed, the fix if one is known, and the evidence for it — its owner's evidence only.
 */
public record Learning(long id, String owner, String trigger, String errorPattern, String diagnosis, String fix, String category,
                       Confidence.Source origin, int occurrences, int successes, int failures, double confidence,
                       Instant createdAt, Instant updatedAt) {

    /** The trigger of errors and successes of one tool. */
    public static String toolTrigger(String toolName) {
        return "tool:" + toolName;
    }

    public boolean shared() {
        return owner.isEmpty();
    }

    public boolean hasFix() {
        return fix != null && !fix.isBlank();
    }

    /**
     * How well this learning matches an error: how many keywords of its own error pattern (or, when
     * it has none, the tool its trigger names) the error contains. It matches when that is at least
     * half of them, and at least one; 0 means no match.
     */
    public int match(String error) {
        return match(trigger, errorPattern, error);
    }

    /** {@link #match(String)} of a learning with this trigger and error pattern. */
    static int match(String trigger, String errorPattern, String error) {
        List<String> keywords = Keywords.of(errorPattern);
        if (keywords.isEmpty()) {
            keywords = trigger.startsWith("tool:") ? List.of(trigger.substring("tool:".length()).toLowerCase(Locale.ROOT))
                    : Keywords.of(trigger);
        }
        String text = error == null ? "" : error.toLowerCase(Locale.ROOT);
        int found = (int) keywords.stream().filter(text::contains).count();
        return !keywords.isEmpty() && found >= Math.max(1, (keywords.size() + 1) / 2) ? found : 0;
    }
}
