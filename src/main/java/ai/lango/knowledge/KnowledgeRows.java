package ai.lango.knowledge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional.TxType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The knowledge store's units of work, each one transaction; an insert that may lose a race runs alone. */
@ApplicationScoped
@Transactional
class KnowledgeRows {

    /** Entries a search reads at most before ranking them. */
    static final int CANDIDATES = 200;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    Optional<KnowledgeEntity> find(String owner, String key, boolean forUpdate) {
        var query = em.createQuery("SELECT k FROM KnowledgeEntity k WHERE k.owner = :owner AND k.key = :key", KnowledgeEntity.class)
                .setParameter("owner", owner).setParameter("key", key);
        if (forUpdate) {
            query.setLockMode(LockModeType.PESSIMISTIC_WRITE);
        }
        return query.getResultList().stream().findFirst();
    }

    /** Every owner with an entry. */
    List<String> owners() {
        return em.createQuery("SELECT DISTINCT k.owner FROM KnowledgeEntity k", String.class).getResultList();
    }

    Optional<KnowledgeEntry> get(String owner, String key) {
        return find(owner, key, false).map(KnowledgeEntity::view);
    }

    @Transactional(TxType.REQUIRES_NEW)
    void insert(KnowledgeEntry entry) {
        em.persist(new KnowledgeEntity(entry, Instant.now()));
        em.flush();
    }

    /** Updates the entry under the entry's owner and key; false when there is none. */
    boolean update(KnowledgeEntry entry) {
        Optional<KnowledgeEntity> found = find(entry.owner(), entry.key(), true);
        found.ifPresent(e -> e.update(entry, Instant.now()));
        return found.isPresent();
    }

    /** Entries of the owners containing any of the keywords (in key, content or tags), of the category if given. */
    List<KnowledgeEntry> matching(List<String> keywords, String category, Collection<String> owners) {
        StringBuilder jpql = new StringBuilder("SELECT k FROM KnowledgeEntity k WHERE k.owner IN :owners AND (");
        for (int i = 0; i < keywords.size(); i++) {
            jpql.append(i == 0 ? "" : " OR ").append("LOWER(k.key) LIKE :w").append(i)
                    .append(" OR LOWER(k.content) LIKE :w").append(i).append(" OR LOWER(k.tags) LIKE :w").append(i);
        }
        jpql.append(")").append(category == null ? "" : " AND k.category = :category").append(" ORDER BY k.updatedAt DESC");
        var query = em.createQuery(jpql.toString(), KnowledgeEntity.class).setMaxResults(CANDIDATES)
                .setParameter("owners", new ArrayList<>(owners));
        for (int i = 0; i < keywords.size(); i++) {
            query.setParameter("w" + i, "%" + likeEscaped(keywords.get(i).toLowerCase(Locale.ROOT)) + "%");
        }
        if (category != null) {
            query.setParameter("category", category);
        }
        return query.getResultList().stream().map(KnowledgeEntity::view).toList();
    }

    /** Entries of the owner (every owner's when null), by owner and key. */
    List<KnowledgeEntry> all(String owner, int offset, int limit) {
        var query = em.createQuery("SELECT k FROM KnowledgeEntity k" + (owner == null ? "" : " WHERE k.owner = :owner")
                + " ORDER BY k.owner, k.key", KnowledgeEntity.class);
        if (owner != null) {
            query.setParameter("owner", owner);
        }
        return query.setFirstResult(offset).setMaxResults(limit)
                .getResultList().stream().map(KnowledgeEntity::view).toList();
    }

    void countUse(String owner, List<String> keys) {
        if (!keys.isEmpty()) {
            em.createQuery("UPDATE KnowledgeEntity k SET k.useCount = k.useCount + 1 WHERE k.owner = :owner AND k.key IN :keys")
                    .setParameter("owner", owner).setParameter("keys", new ArrayList<>(keys)).executeUpdate();
        }
    }

    boolean delete(String owner, String key) {
        return em.createQuery("DELETE FROM KnowledgeEntity k WHERE k.owner = :owner AND k.key = :key")
                .setParameter("owner", owner).setParameter("key", key).executeUpdate() > 0;
    }

    /** Keywords hold letters, digits, '-' and '_' only; '_' is a LIKE wildcard and matches itself too, harmlessly. */
    private static String likeEscaped(String keyword) {
        return keyword.replace("%", "");
    }
}
