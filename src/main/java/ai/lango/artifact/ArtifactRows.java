package ai.lango.artifact;

import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** lango_artifacts' units of work, each its own transaction. Reads select only what they answer. */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class ArtifactRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /**
     * Stores the next version of {@code name} (one past the highest stored, 0 for the first) and
     * answers it; fails at the flush, the unique constraint violated, when another save took that
     * version first.
     */
    int insert(SessionRef session, String name, String mimeType, byte[] data, long now) {
        Integer highest = em.createQuery("SELECT MAX(a.version) FROM ArtifactEntity a WHERE a.sessionScope = :s AND a.name = :n",
                        Integer.class)
                .setParameter("s", session.scope()).setParameter("n", name).getSingleResult();
        int version = highest == null ? 0 : highest + 1;
        em.persist(new ArtifactEntity(UUID.randomUUID().toString(), session, name, version, mimeType, data, now));
        em.flush();
        return version;
    }

    /** The version asked for, or the latest when {@code version} is null. */
    Optional<Artifact> find(String scope, String name, Integer version) {
        String latest = version == null ? " ORDER BY a.version DESC" : " AND a.version = :v";
        var query = em.createQuery("SELECT a FROM ArtifactEntity a WHERE a.sessionScope = :s AND a.name = :n" + latest,
                        ArtifactEntity.class)
                .setParameter("s", scope).setParameter("n", name).setMaxResults(1);
        if (version != null) {
            query.setParameter("v", version);
        }
        return query.getResultList().stream().findFirst().map(ArtifactEntity::view);
    }

    List<String> names(String scope) {
        return em.createQuery("SELECT DISTINCT a.name FROM ArtifactEntity a WHERE a.sessionScope = :s ORDER BY a.name",
                String.class).setParameter("s", scope).getResultList();
    }

    List<Integer> versions(String scope, String name) {
        return em.createQuery("SELECT a.version FROM ArtifactEntity a WHERE a.sessionScope = :s AND a.name = :n ORDER BY a.version",
                Integer.class).setParameter("s", scope).setParameter("n", name).getResultList();
    }

    /** Deletes every version of {@code name}; how many there were. */
    int delete(String scope, String name) {
        return em.createQuery("DELETE FROM ArtifactEntity a WHERE a.sessionScope = :s AND a.name = :n")
                .setParameter("s", scope).setParameter("n", name).executeUpdate();
    }

    /** Deletes every artifact of the session; how many there were. */
    int deleteSession(String scope) {
        return em.createQuery("DELETE FROM ArtifactEntity a WHERE a.sessionScope = :s")
                .setParameter("s", scope).executeUpdate();
    }
}
