package ai.lango.memory;

import ai.lango.retrieval.Document;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory's units of work, each one transaction. The writes that may lose a race with another
 * server run in transactions of their own, so that {@link MemoryStore} can tell a lost race from a
 * failure.
 */
@ApplicationScoped
@Transactional
class MemoryRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** Another server folded or observed the same items first; this transaction is rolled back. */
    static final class LostRace extends RuntimeException {
        LostRace(String what) {
            super(what);
        }
    }

    /** The session's observations, oldest first: all of them, or only those still offered to the model. */
    List<Observation> observations(long sessionId, boolean withFolded) {
        return em.createQuery("SELECT o FROM ObservationEntity o WHERE o.sessionId = :sid"
                        + (withFolded ? "" : " AND o.foldedInto IS NULL") + " ORDER BY o.id", ObservationEntity.class)
                .setParameter("sid", sessionId).getResultList().stream().map(ObservationEntity::view).toList();
    }

    /** The session's reflections, oldest first: all of them, or only those still offered to the model. */
    List<Reflection> reflections(long sessionId, boolean withFolded) {
        return em.createQuery("SELECT r FROM ReflectionEntity r WHERE r.sessionId = :sid"
                        + (withFolded ? "" : " AND r.foldedInto IS NULL") + " ORDER BY r.id", ReflectionEntity.class)
                .setParameter("sid", sessionId).getResultList().stream().map(ReflectionEntity::view).toList();
    }

    /** A remembered text of one of a user's sessions, for recall. */
    record UserItem(String sessionKey, String content, long createdAt) {
    }

    /**
     * The newest {@code limit} observations and reflections of every session of the user in the
     * app, folded ones included: they are kept so that recall can still find them.
     */
    List<UserItem> userItems(String appName, String userId, int limit) {
        List<UserItem> items = new java.util.ArrayList<>();
        for (String entity : List.of("ObservationEntity", "ReflectionEntity")) {
            em.createQuery("SELECT s.key, e.content, e.createdAt FROM " + entity + " e, SessionEntity s"
                            + " WHERE e.sessionId = s.id AND s.appName = :app AND s.userId = :user"
                            + " ORDER BY e.id DESC", Object[].class)
                    .setParameter("app", appName).setParameter("user", userId).setMaxResults(limit)
                    .getResultList()
                    .forEach(row -> items.add(new UserItem((String) row[0], (String) row[1], ((Number) row[2]).longValue())));
        }
        return items;
    }

    /** The id of the last message an observation covers, 0 when none is observed. */
    long lastObservedMessageId(long sessionId) {
        Long last = em.createQuery("SELECT MAX(o.lastMessageId) FROM ObservationEntity o WHERE o.sessionId = :sid",
                        Long.class)
                .setParameter("sid", sessionId).getSingleResult();
        return last == null ? 0 : last;
    }

    @Transactional(TxType.REQUIRES_NEW)
    Observation insertObservation(long sessionId, String content, int tokens, long firstMessageId, long lastMessageId) {
        ObservationEntity observation = new ObservationEntity(sessionId, content, tokens, firstMessageId, lastMessageId,
                Instant.now());
        em.persist(observation);
        em.flush();
        return observation.view();
    }

    /**
     * A new reflection in place of the given observations and reflections, which stay stored, marked
     * as folded into it. All of them must still be unfolded, or nothing is written.
     */
    @Transactional(TxType.REQUIRES_NEW)
    Reflection fold(long sessionId, String content, int tokens, int generation, List<Long> observationIds,
                    List<Long> reflectionIds) {
        ReflectionEntity reflection = new ReflectionEntity(sessionId, content, tokens, generation, Instant.now());
        em.persist(reflection);
        em.flush();
        markFolded("ObservationEntity", observationIds, reflection.id());
        markFolded("ReflectionEntity", reflectionIds, reflection.id());
        return reflection.view();
    }

    private void markFolded(String entity, List<Long> ids, long into) {
        if (ids.isEmpty()) {
            return;
        }
        int marked = em.createQuery("UPDATE " + entity + " e SET e.foldedInto = :into"
                        + " WHERE e.id IN :ids AND e.foldedInto IS NULL")
                .setParameter("into", into).setParameter("ids", ids).executeUpdate();
        if (marked != ids.size()) {
            throw new LostRace(entity + " " + ids + " were folded already");
        }
    }

    /** Deletes the session's observations and reflections (never its messages); how many there were. */
    int clear(long sessionId) {
        int observations = em.createQuery("DELETE FROM ObservationEntity o WHERE o.sessionId = :sid")
                .setParameter("sid", sessionId).executeUpdate();
        em.createQuery("UPDATE ReflectionEntity r SET r.foldedInto = NULL WHERE r.sessionId = :sid")
                .setParameter("sid", sessionId).executeUpdate();
        int reflections = em.createQuery("DELETE FROM ReflectionEntity r WHERE r.sessionId = :sid")
                .setParameter("sid", sessionId).executeUpdate();
        return observations + reflections;
    }

    /** The session's observation stored last before {@code id}, if any. */
    Long observationBefore(long sessionId, long id) {
        return em.createQuery("SELECT MAX(o.id) FROM ObservationEntity o WHERE o.sessionId = :sid AND o.id < :id", Long.class)
                .setParameter("sid", sessionId).setParameter("id", id).getSingleResult();
    }

    /** Every observation or reflection (by {@code collection}) of every session, with its session's scope. */
    List<Document> documents(String collection) {
        String entity = Document.OBSERVATION.equals(collection) ? "ObservationEntity" : "ReflectionEntity";
        List<Document> documents = new ArrayList<>();
        for (Object[] row : em.createQuery("SELECT e.id, s.appName, s.userId, s.key, e.content FROM " + entity
                + " e, SessionEntity s WHERE e.sessionId = s.id", Object[].class).getResultList()) {
            SessionRef session = new SessionRef((String) row[1], (String) row[2], (String) row[3]);
            documents.add(new Document(collection, row[0].toString(), session.scope(), (String) row[4]));
        }
        return documents;
    }
}
