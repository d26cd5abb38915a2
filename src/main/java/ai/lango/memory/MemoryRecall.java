package ai.lango.memory;

import ai.lango.config.LangoSettings;
import ai.lango.knowledge.Keywords;
import ai.lango.turn.Recall;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Recall across a user's sessions: every observation and reflection stored for the user's
 * sessions — also those folded into a reflection and no longer in the prompt, which is why they
 * are kept — ranked by how many of the query's keywords they contain (newest first among equals).
 * Keyword matching for now; nothing without a keyword in common.
 */
@Alternative
@Priority(100)
@ApplicationScoped
public class MemoryRecall implements Recall {

    /** Remembered texts of one user that a search reads at most, per kind, newest first. */
    static final int CANDIDATES = 500;

    @Inject
    LangoSettings.Memory settings;

    @Inject
    MemoryRows rows;

    @Override
    public List<Recalled> search(String appName, String userId, String query, int limit) {
        List<String> keywords = Keywords.of(query);
        if (!settings.enabled() || keywords.isEmpty() || limit <= 0) {
            return List.of();
        }
        record Scored(MemoryRows.UserItem item, long score) {
        }
        return rows.userItems(appName, userId, CANDIDATES).stream()
                .map(item -> new Scored(item, score(item.content(), keywords)))
                .filter(s -> s.score() > 0)
                .sorted(Comparator.comparingLong(Scored::score).reversed()
                        .thenComparing(s -> s.item().createdAt(), Comparator.reverseOrder()))
                .limit(limit)
                .map(s -> new Recalled(s.item().sessionKey(), s.item().content(), Instant.ofEpochMilli(s.item().createdAt())))
                .toList();
    }

    /** How many of the keywords the text contains, ignoring case. */
    static long score(String text, List<String> keywords) {
        String lower = text.toLowerCase(Locale.ROOT);
        return keywords.stream().filter(lower::contains).count();
    }
}
