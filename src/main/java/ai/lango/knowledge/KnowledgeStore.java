package ai.lango.knowledge;

import ai.lango.config.LangoSettings;
import ai.lango.database.KeysWithRows;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Retrieval;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Knowledge, on every server: each entry belongs to a user or, {@link KnowledgeEntry#SHARED}, to
 * every user. Saving upserts by owner and key and is safe when two servers save the same new key at
 * once: one insert wins, the other becomes an update. Searches read the owners they are given.
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

    @Inject
    LangoSettings settings;

    /** Whose entries exist: a search for users without any (and no shared ones) asks no database. */
    private KeysWithRows knownOwners;

    @PostConstruct
    void rememberOwners() {
        knownOwners = new KeysWithRows(settings.database().kind().exclusive(), rows::owners);
    }

    /** Saves the entry under its owner and key; true when it was new. */
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
            knownOwners.adding(entry.owner());
            rows.insert(entry);
            return true;
        } catch (RuntimeException raced) {
            if (rows.update(entry)) {
                return false;
            }
            throw raced;
        }
    }

    /** The entry as retrieval indexes it: its content, under its key, in its owner's scope. */
    static Document document(KnowledgeEntry entry) {
        return new Document(Document.KNOWLEDGE, entry.key(), Document.ownerScope(entry.owner()), entry.content());
    }

    /** The entry under {@code key} of {@code owner} ({@link KnowledgeEntry#SHARED}: the shared one). */
    public Optional<KnowledgeEntry> get(String owner, String key) {
        return rows.get(owner, key);
    }

    /**
     * The entries of {@code owners} most relevant to the text (most of its keywords first, then the
     * newest), at most {@code limit}, of {@code category} when not null; nothing when the text has no keyword.
     */
    public List<KnowledgeEntry> search(String text, String category, int limit, Collection<String> owners) {
        List<String> keywords = Keywords.of(text);
        if (keywords.isEmpty() || !knownOwners.mayHold(owners)) {
            return List.of();
        }
        return rows.matching(keywords, category, owners).stream()
                .sorted(Comparator.comparingInt((KnowledgeEntry e) -> e.relevance(keywords)).reversed())
                .limit(limit).toList();
    }

    /** Counts one use of each entry (a search that returned it). */
    public void countUse(List<KnowledgeEntry> used) {
        used.stream().collect(java.util.stream.Collectors.groupingBy(KnowledgeEntry::owner))
                .forEach((owner, entries) -> rows.countUse(owner, entries.stream().map(KnowledgeEntry::key).toList()));
    }

    /** Every entry (of {@code owner}, when not null), by owner and key: {@code limit} of them from {@code offset} on. */
    public List<KnowledgeEntry> all(String owner, int offset, int limit) {
        return rows.all(owner, offset, limit);
    }

    public boolean delete(String owner, String key) {
        boolean found = rows.delete(owner, key);
        retrieval.remove(Document.KNOWLEDGE, key, Document.ownerScope(owner));
        if (found) {
            deleted.fire(new KnowledgeDeleted(owner, key));
        }
        return found;
    }

    /**
     * Makes a user's entry shared (an administrator's decision): saved as the shared entry under its
     * key, replacing one there, and no longer the user's. The shared entry, or empty when the user has none.
     */
    public Optional<KnowledgeEntry> share(String owner, String key) {
        Optional<KnowledgeEntry> own = get(owner, key);
        if (own.isEmpty() || own.get().shared()) {
            return own;
        }
        save(own.get().ownedBy(KnowledgeEntry.SHARED));
        delete(owner, key);
        return get(KnowledgeEntry.SHARED, key);
    }
}
