package ai.lango.knowledge;

import ai.lango.retrieval.Document;
import ai.lango.retrieval.Retrieval;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Knowledge, for the whole application: every session and every server sees the same entries.
 * Saving upserts by key and is safe when two servers save the same new key at once: one insert
 * wins, the other becomes an update.
 */
@ApplicationScoped
public class KnowledgeStore {

    /** What one search returns at most. */
    public static final int SEARCH_LIMIT = 10;

    @Inject
    KnowledgeRows rows;

    @Inject
    Retrieval retrieval;

    @Inject
    Event<KnowledgeSaved> saved;

    @Inject
    Event<KnowledgeDeleted> deleted;

    /** Saves the entry under its key; true when it was new. */
    public boolean save(KnowledgeEntry entry) {
        boolean created = store(entry);
        retrieval.index(document(entry));
        saved.fire(new KnowledgeSaved(entry, created));
        return created;
    }

    private boolean store(KnowledgeEntry entry) {
        if (rows.update(entry)) {
            return false;
        }
        try {
            rows.insert(entry);
            return true;
        } catch (RuntimeException raced) {
            if (rows.update(entry)) {
                return false;
            }
            throw raced;
        }
    }

    /** The entry as retrieval indexes it: its content, under its key. */
    static Document document(KnowledgeEntry entry) {
        return new Document(Document.KNOWLEDGE, entry.key(), null, entry.content());
    }

    public Optional<KnowledgeEntry> get(String key) {
        return rows.get(key);
    }

    /**
     * The entries most relevant to the text (most of its keywords first, then the newest), at most
     * {@code limit}, of {@code category} when not null; nothing when the text has no keyword.
     */
    public List<KnowledgeEntry> search(String text, String category, int limit) {
        List<String> keywords = Keywords.of(text);
        if (keywords.isEmpty()) {
            return List.of();
        }
        return rows.matching(keywords, category).stream()
                .sorted(Comparator.comparingInt((KnowledgeEntry e) -> e.relevance(keywords)).reversed())
                .limit(limit).toList();
    }

    /** Counts one use of each entry (a search that returned it). */
    public void countUse(List<KnowledgeEntry> used) {
        rows.countUse(used.stream().map(KnowledgeEntry::key).toList());
    }

    /** Every entry, by key: {@code limit} of them from {@code offset} on. */
    public List<KnowledgeEntry> all(int offset, int limit) {
        return rows.all(offset, limit);
    }

    public boolean delete(String key) {
        boolean found = rows.delete(key);
        retrieval.remove(Document.KNOWLEDGE, key);
        if (found) {
            deleted.fire(new KnowledgeDeleted(key));
        }
        return found;
    }
}
