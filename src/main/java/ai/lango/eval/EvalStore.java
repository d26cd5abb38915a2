package ai.lango.eval;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import java.util.Optional;

/** lango_eval_sets and lango_eval_results, each call its own transaction. Owner '' is the administrators' shared set. */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class EvalStore {

    /** A stored set: whose ('' shared), its JSON as a file holds it, and the hash of the file it was read from. */
    public record Stored(String owner, String setId, String json, String fileHash) {
    }

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** The sets {@code userId} sees: their own, and the shared ones when they administer ({@code admin}). */
    public List<Stored> visibleTo(String userId, boolean admin) {
        String owners = admin ? "s.owner = '' OR s.owner = :u" : "s.owner = :u";
        return em.createQuery("SELECT s FROM EvalSetEntity s WHERE " + owners + " ORDER BY s.setId", EvalSetEntity.class)
                .setParameter("u", userId).getResultList().stream().map(EvalStore::view).toList();
    }

    public List<Stored> shared() {
        return visibleTo(EvalLibrary.SHARED, false);
    }

    public Optional<Stored> find(String owner, String setId) {
        return Optional.ofNullable(em.find(EvalSetEntity.class, EvalSetEntity.key(owner, setId))).map(EvalStore::view);
    }

    /** Writes the set (new or changed). */
    public void put(String owner, String setId, String json, String fileHash) {
        EvalSetEntity row = em.find(EvalSetEntity.class, EvalSetEntity.key(owner, setId));
        if (row == null) {
            em.persist(new EvalSetEntity(owner, setId, json, fileHash));
        } else {
            row.update(json, fileHash);
        }
    }

    public boolean delete(String owner, String setId) {
        EvalSetEntity row = em.find(EvalSetEntity.class, EvalSetEntity.key(owner, setId));
        if (row == null) {
            return false;
        }
        em.remove(row);
        return true;
    }

    public void saveResult(String id, String userId, String setId, String status, String json, long createdAt) {
        em.persist(new EvalResultEntity(id, userId, setId, status, json, createdAt));
    }

    public Optional<String> result(String id, String userId) {
        EvalResultEntity row = em.find(EvalResultEntity.class, id);
        return row == null || !row.userId().equals(userId) ? Optional.empty() : Optional.of(row.result());
    }

    /** The ids of {@code userId}'s results, newest first. */
    public List<String> resultIds(String userId, int limit) {
        return em.createQuery("SELECT r.id FROM EvalResultEntity r WHERE r.userId = :u ORDER BY r.createdAt DESC", String.class)
                .setParameter("u", userId).setMaxResults(limit).getResultList();
    }

    private static Stored view(EvalSetEntity row) {
        return new Stored(row.owner(), row.setId(), row.evalSet(), row.fileHash());
    }
}
