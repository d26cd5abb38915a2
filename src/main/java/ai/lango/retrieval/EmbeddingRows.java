package ai.lango.retrieval;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** lango_embeddings' units of work, each its own transaction. */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class EmbeddingRows {

    /** Ids one IN list carries at most. */
    private static final int IN_LIMIT = 500;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** COUNT(*) and MAX(id): equal to a copy's own when the copy is current (ids only grow). */
    record Fingerprint(long count, long maxId) {
    }

    Fingerprint fingerprint() {
        Object[] row = (Object[]) em.createQuery("SELECT COUNT(e), MAX(e.id) FROM EmbeddingEntity e").getSingleResult();
        return new Fingerprint(((Number) row[0]).longValue(), row[1] == null ? 0 : ((Number) row[1]).longValue());
    }

    List<Long> ids() {
        return em.createQuery("SELECT e.id FROM EmbeddingEntity e", Long.class).getResultList();
    }

    List<StoredVector> byIds(Collection<Long> ids) {
        List<Long> all = new ArrayList<>(ids);
        List<StoredVector> found = new ArrayList<>();
        for (int from = 0; from < all.size(); from += IN_LIMIT) {
            List<Long> part = all.subList(from, Math.min(all.size(), from + IN_LIMIT));
            em.createQuery("SELECT e FROM EmbeddingEntity e WHERE e.id IN :ids", EmbeddingEntity.class)
                    .setParameter("ids", new ArrayList<>(part)).getResultList().forEach(e -> found.add(e.view()));
        }
        return found;
    }

    /** Replaces the document's vector (delete, then insert under a new id); the stored row. */
    StoredVector replace(Document document, String model, float[] vector) {
        delete(document.collection(), document.sourceId(), document.scope());
        EmbeddingEntity entity = new EmbeddingEntity(document, model, vector, System.currentTimeMillis());
        em.persist(entity);
        em.flush();
        return entity.view();
    }

    /** Deletes the vector of the row {@code sourceId} of {@code collection} in {@code scope} (null: shared). */
    int delete(String collection, String sourceId, String scope) {
        return em.createQuery("DELETE FROM EmbeddingEntity e WHERE e.collection = :c AND e.sourceId = :s AND e.scope = :k")
                .setParameter("c", collection).setParameter("s", sourceId).setParameter("k", EmbeddingEntity.column(scope))
                .executeUpdate();
    }

    int delete(long id) {
        return em.createQuery("DELETE FROM EmbeddingEntity e WHERE e.id = :id").setParameter("id", id).executeUpdate();
    }

    /** Deletes every vector of a session (or of an owner). */
    int deleteScope(String scope) {
        return em.createQuery("DELETE FROM EmbeddingEntity e WHERE e.scope = :k").setParameter("k", scope).executeUpdate();
    }
}
