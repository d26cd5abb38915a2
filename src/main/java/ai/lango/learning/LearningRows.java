package ai.lango.learning;

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
import java.util.function.Consumer;

/**
 * The learning store's units of work, each one transaction. A learning changes under a row lock,
 * so two servers counting evidence at once both count; an insert that may lose a race runs alone.
 */
@ApplicationScoped
@Transactional
class LearningRows {

    /** Learnings a search reads before ranking them, and the matches of an error returned, at most. */
    static final int CANDIDATES = 200;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** Every owner with a learning. */
    List<String> owners() {
        return em.createQuery("SELECT DISTINCT l.owner FROM LearningEntity l", String.class).getResultList();
    }

    @Transactional(TxType.REQUIRES_NEW)
    void insert(String owner, String trigger, String errorPattern) {
        em.persist(new LearningEntity(owner, trigger, errorPattern, Instant.now()));
        em.flush();
    }

    /** Changes the owner's learning under (trigger, pattern) under a lock; false when there is none. */
    boolean change(String owner, String trigger, String errorPattern, Consumer<LearningEntity> change) {
        List<LearningEntity> found = em.createQuery("SELECT l FROM LearningEntity l WHERE l.owner = :owner"
                                + " AND l.trigger = :trigger AND l.errorPattern = :pattern", LearningEntity.class)
                .setParameter("owner", owner).setParameter("trigger", trigger).setParameter("pattern", errorPattern)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        found.forEach(change);
        return !found.isEmpty();
    }

    Optional<Learning> find(String owner, String trigger, String errorPattern) {
        return em.createQuery("SELECT l FROM LearningEntity l WHERE l.owner = :owner"
                        + " AND l.trigger = :trigger AND l.errorPattern = :pattern", LearningEntity.class)
                .setParameter("owner", owner).setParameter("trigger", trigger).setParameter("pattern", errorPattern).getResultList().stream()
                .findFirst().map(LearningEntity::view);
    }

    /** Changes the learning with this id under a lock; false when there is none. */
    boolean change(long id, Consumer<LearningEntity> change) {
        LearningEntity found = em.find(LearningEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (found != null) {
            change.accept(found);
        }
        return found != null;
    }

    /** Counts a success for every learning of the owner whose trigger is exactly this one; how many there were. */
    int succeeded(String owner, String trigger) {
        List<LearningEntity> found = em.createQuery("SELECT l FROM LearningEntity l WHERE l.owner = :owner AND l.trigger = :trigger",
                        LearningEntity.class)
                .setParameter("owner", owner).setParameter("trigger", trigger).setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        Instant now = Instant.now();
        found.forEach(l -> l.succeeded(now));
        return found.size();
    }

    /**
     * What matching an error needs of every learning of the owners above {@code minConfidence} (with a fix,
     * if asked): all of them, as any may match however many more confident ones there are, and only these
     * few columns of each.
     */
    List<Candidate> candidates(double minConfidence, boolean withFixOnly, Collection<String> owners) {
        return em.createQuery("SELECT l.id, l.trigger, l.errorPattern, l.confidence FROM LearningEntity l"
                        + " WHERE l.owner IN :owners AND l.confidence > :min" + (withFixOnly ? " AND l.fix <> ''" : ""),
                        Object[].class)
                .setParameter("owners", new ArrayList<>(owners)).setParameter("min", minConfidence)
                .getResultList().stream()
                .map(row -> new Candidate((Long) row[0], (String) row[1], (String) row[2], ((Number) row[3]).doubleValue()))
                .toList();
    }

    /** A learning as a match for an error: enough to rank it. */
    record Candidate(long id, String trigger, String errorPattern, double confidence) {
    }

    /** The learnings with these ids that still exist. */
    List<Learning> byIds(Collection<Long> ids) {
        return ids.isEmpty() ? List.of() : em.createQuery("SELECT l FROM LearningEntity l WHERE l.id IN :ids", LearningEntity.class)
                .setParameter("ids", new ArrayList<>(ids)).getResultList().stream().map(LearningEntity::view).toList();
    }

    /** The owners' learnings whose trigger, pattern, diagnosis or fix contains any of the keywords, most confident first. */
    List<Learning> matching(List<String> keywords, String category, boolean withFixOnly, Collection<String> owners) {
        StringBuilder jpql = new StringBuilder("SELECT l FROM LearningEntity l WHERE l.owner IN :owners AND (");
        for (int i = 0; i < keywords.size(); i++) {
            jpql.append(i == 0 ? "" : " OR ").append("LOWER(l.trigger) LIKE :w").append(i)
                    .append(" OR LOWER(l.errorPattern) LIKE :w").append(i)
                    .append(" OR LOWER(l.diagnosis) LIKE :w").append(i)
                    .append(" OR LOWER(l.fix) LIKE :w").append(i);
        }
        jpql.append(")").append(category == null ? "" : " AND l.category = :category")
                .append(withFixOnly ? " AND l.fix <> ''" : "").append(" ORDER BY l.confidence DESC, l.updatedAt DESC");
        var query = em.createQuery(jpql.toString(), LearningEntity.class).setMaxResults(CANDIDATES)
                .setParameter("owners", new ArrayList<>(owners));
        for (int i = 0; i < keywords.size(); i++) {
            query.setParameter("w" + i, "%" + keywords.get(i).toLowerCase(Locale.ROOT).replace("%", "") + "%");
        }
        if (category != null) {
            query.setParameter("category", category);
        }
        return query.getResultList().stream().map(LearningEntity::view).toList();
    }

    Optional<Learning> get(long id) {
        return Optional.ofNullable(em.find(LearningEntity.class, id)).map(LearningEntity::view);
    }

    /** Learnings of the owners (every owner's when null), most confident first. */
    List<Learning> all(Collection<String> owners, int offset, int limit) {
        var query = em.createQuery("SELECT l FROM LearningEntity l" + (owners == null ? "" : " WHERE l.owner IN :owners")
                + " ORDER BY l.confidence DESC, l.id", LearningEntity.class);
        if (owners != null) {
            query.setParameter("owners", new ArrayList<>(owners));
        }
        return query.setFirstResult(offset).setMaxResults(limit).getResultList().stream().map(LearningEntity::view).toList();
    }

    boolean delete(long id) {
        return em.createQuery("DELETE FROM LearningEntity l WHERE l.id = :id").setParameter("id", id).executeUpdate() > 0;
    }
}
