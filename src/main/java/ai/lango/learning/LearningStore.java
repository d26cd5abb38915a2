package ai.lango.learning;

import ai.lango.knowledge.Keywords;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Retrieval;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Learnings, for the whole application (every session, every server). One learning per (trigger,
 * error pattern); evidence is counted under a row lock, and of two servers inserting the same new
 * learning one insert wins and the other counts on it.
 */
@ApplicationScoped
public class LearningStore {

    /** What one search returns at most. */
    public static final int SEARCH_LIMIT = 10;

    @Inject
    LearningRows rows;

    @Inject
    Retrieval retrieval;

    /** A fix given explicitly (save_learning): stored or replacing the one under the same trigger and pattern. */
    public void saveFix(String trigger, String errorPattern, String fix, String diagnosis, String category) {
        Instant now = Instant.now();
        upsert(trigger, LearningEntity.pattern(errorPattern), l -> l.saveFix(fix, diagnosis, category, now));
    }

    /** An error that no confident learning covers: recorded, or counted again on the learning that has it. */
    public void occurred(String trigger, String errorPattern, String diagnosis, String category) {
        Instant now = Instant.now();
        upsert(trigger, LearningEntity.pattern(errorPattern), l -> l.occurred(diagnosis, category, now));
    }

    /** A success of the trigger: every learning with exactly this trigger is confirmed once. */
    public int succeeded(String trigger) {
        return rows.succeeded(trigger);
    }

    /** The outcome of applying a learning's fix. */
    public void outcome(long id, boolean succeeded) {
        Instant now = Instant.now();
        rows.change(id, l -> {
            if (succeeded) {
                l.succeeded(now);
            } else {
                l.failed(now);
            }
        });
    }

    /**
     * The learnings with confidence over {@code minConfidence} (and a fix, if asked) that match the
     * error (see {@link Learning#match}), best match first, then most confident.
     */
    public List<Learning> matchingError(String error, double minConfidence, boolean withFixOnly) {
        return rows.confident(minConfidence, withFixOnly, LearningRows.CANDIDATES).stream()
                .filter(l -> l.match(error) > 0)
                .sorted(Comparator.comparingInt((Learning l) -> l.match(error)).reversed()
                        .thenComparing(Comparator.comparingDouble(Learning::confidence).reversed()))
                .toList();
    }

    /** Learnings containing any word of the query, most confident first, at most {@code limit}. */
    public List<Learning> search(String query, String category, int limit) {
        List<String> keywords = Keywords.of(query);
        return keywords.isEmpty() ? List.of() : rows.matching(keywords, category, false).stream().limit(limit).toList();
    }

    public Optional<Learning> get(long id) {
        return rows.get(id);
    }

    /** Every learning, most confident first: {@code limit} of them from {@code offset} on. */
    public List<Learning> all(int offset, int limit) {
        return rows.all(offset, limit);
    }

    public boolean delete(long id) {
        boolean found = rows.delete(id);
        retrieval.remove(Document.LEARNING, Long.toString(id));
        return found;
    }

    /** The learning as retrieval indexes it: its trigger, then its fix (or, without one, what was diagnosed). */
    static Document document(Learning learning) {
        String body = learning.hasFix() ? learning.fix() : learning.diagnosis();
        return new Document(Document.LEARNING, Long.toString(learning.id()), null,
                learning.trigger() + (body == null || body.isBlank() ? "" : "\n" + body));
    }

    private void upsert(String trigger, String pattern, Consumer<LearningEntity> change) {
        if (rows.change(trigger, pattern, change)) {
            indexed(trigger, pattern);
            return;
        }
        try {
            rows.insert(trigger, pattern);
        } catch (RuntimeException raced) {
            // Another server inserted it first: count on that one.
        }
        if (!rows.change(trigger, pattern, change)) {
            throw new IllegalStateException("learning " + trigger + " could not be stored");
        }
        indexed(trigger, pattern);
    }

    private void indexed(String trigger, String pattern) {
        rows.find(trigger, pattern).ifPresent(l -> retrieval.index(document(l)));
    }
}
