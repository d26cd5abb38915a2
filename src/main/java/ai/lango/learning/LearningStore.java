package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.knowledge.Keywords;
import ai.lango.database.KeysWithRows;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Retrieval;
import ai.lango.security.Ownership;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Learnings, on every server; each belongs to a user or, {@link Ownership#SHARED}, to every user,
 * and counts its owner's evidence only. One learning per (owner, trigger, error pattern); evidence
 * is counted under a row lock, and of two servers inserting the same new learning one insert wins
 * and the other counts on it. Searches read the owners they are given.
 */
@ApplicationScoped
public class LearningStore {

    /** What one search returns at most. */
    public static final int SEARCH_LIMIT = 10;

    @Inject
    LearningRows rows;

    @Inject
    Retrieval retrieval;

    @Inject
    LangoSettings settings;

    /** Whose learnings exist: a search for users without any (and no shared ones) asks no database. */
    private KeysWithRows knownOwners;

    @PostConstruct
    void rememberOwners() {
        knownOwners = new KeysWithRows(settings.database().kind().exclusive(), rows::owners);
    }

    /** A fix given explicitly (save_learning): stored or replacing the owner's one under the same trigger and pattern. */
    public void saveFix(String owner, String trigger, String errorPattern, String fix, String diagnosis, String category) {
        Instant now = Instant.now();
        upsert(owner, trigger, LearningEntity.pattern(errorPattern), l -> l.saveFix(fix, diagnosis, category, now));
    }

    /** An error that no confident learning covers: recorded for the owner, or counted again on the owner's learning that has it. */
    public void occurred(String owner, String trigger, String errorPattern, String diagnosis, String category) {
        Instant now = Instant.now();
        upsert(owner, trigger, LearningEntity.pattern(errorPattern), l -> l.occurred(diagnosis, category, now));
    }

    /** A success of the trigger in a turn of the owner: every learning of the owner with exactly this trigger is confirmed once. */
    public int succeeded(String owner, String trigger) {
        return rows.succeeded(owner, trigger);
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
     * The learnings of {@code owners} with confidence over {@code minConfidence} (and a fix, if
     * asked) that match the error (see {@link Learning#match}), best match first, then most confident.
     */
    public List<Learning> matchingError(String error, double minConfidence, boolean withFixOnly, Collection<String> owners) {
        if (!knownOwners.mayHold(owners)) {
            return List.of();
        }
        Map<Long, Integer> rank = new HashMap<>();
        rows.candidates(minConfidence, withFixOnly, owners).stream()
                .map(c -> new Match(c.id(), Learning.match(c.trigger(), c.errorPattern(), error), c.confidence()))
                .filter(m -> m.words() > 0)
                .sorted(Comparator.comparingInt(Match::words).thenComparingDouble(Match::confidence).reversed())
                .limit(LearningRows.CANDIDATES)
                .forEach(m -> rank.put(m.id(), rank.size()));
        return rows.byIds(rank.keySet()).stream().sorted(Comparator.comparingInt(l -> rank.get(l.id()))).toList();
    }

    /** A learning matching an error: how many of its keywords the error has ({@link Learning#match}), and its confidence. */
    private record Match(long id, int words, double confidence) {
    }

    /** Learnings of {@code owners} containing any word of the query, most confident first, at most {@code limit}. */
    public List<Learning> search(String query, String category, int limit, Collection<String> owners) {
        List<String> keywords = Keywords.of(query);
        return keywords.isEmpty() || !knownOwners.mayHold(owners) ? List.of() : rows.matching(keywords, category, false, owners).stream().limit(limit).toList();
    }

    public Optional<Learning> get(long id) {
        return rows.get(id);
    }

    /** The learnings of {@code owners} (every owner's when null), most confident first: {@code limit} of them from {@code offset} on. */
    public List<Learning> all(Collection<String> owners, int offset, int limit) {
        return rows.all(owners, offset, limit);
    }

    public boolean delete(long id) {
        Optional<Learning> found = rows.get(id);
        found.ifPresent(l -> {
            rows.delete(id);
            retrieval.remove(Document.LEARNING, Long.toString(id), Document.ownerScope(l.owner()));
        });
        return found.isPresent();
    }

    /**
     * Makes a user's learning shared (an administrator's decision). Where a shared learning has the
     * same trigger and pattern already, it takes the user's fix and the user's is deleted. The shared
     * learning, or empty when there is no learning {@code id}.
     */
    public Optional<Learning> share(long id) {
        Optional<Learning> found = rows.get(id);
        if (found.isEmpty() || found.get().shared()) {
            return found;
        }
        Learning own = found.get();
        if (rows.find(Ownership.SHARED, own.trigger(), own.errorPattern()).isEmpty()) {
            rows.change(id, LearningEntity::share);
            retrieval.remove(Document.LEARNING, Long.toString(id), Document.ownerScope(own.owner()));
            rows.get(id).ifPresent(l -> retrieval.index(document(l)));
        } else {
            if (own.hasFix()) {
                saveFix(Ownership.SHARED, own.trigger(), own.errorPattern(), own.fix(), own.diagnosis(), own.category());
            }
            delete(id);
        }
        return rows.find(Ownership.SHARED, own.trigger(), own.errorPattern());
    }

    /** The learning as retrieval indexes it: its trigger, then its fix (or, without one, what was diagnosed), in its owner's scope. */
    static Document document(Learning learning) {
        String body = learning.hasFix() ? learning.fix() : learning.diagnosis();
        return new Document(Document.LEARNING, Long.toString(learning.id()), Document.ownerScope(learning.owner()),
                learning.trigger() + (body == null || body.isBlank() ? "" : "\n" + body));
    }

    private void upsert(String owner, String trigger, String pattern, Consumer<LearningEntity> change) {
        if (rows.change(owner, trigger, pattern, change)) {
            indexed(owner, trigger, pattern);
            return;
        }
        try {
            knownOwners.adding(owner);
            rows.insert(owner, trigger, pattern);
        } catch (RuntimeException raced) {
            // Another server inserted it first: count on that one.
        }
        if (!rows.change(owner, trigger, pattern, change)) {
            throw new IllegalStateException("learning " + trigger + " could not be stored");
        }
        indexed(owner, trigger, pattern);
    }

    private void indexed(String owner, String trigger, String pattern) {
        rows.find(owner, trigger, pattern).ifPresent(l -> retrieval.index(document(l)));
    }
}
