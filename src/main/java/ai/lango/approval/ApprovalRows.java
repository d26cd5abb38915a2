package ai.lango.approval;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * lango_approvals' units of work, each its own transaction. A decision and a run are single
 * UPDATEs guarded by the state they leave, so of two answers (or two servers) only one counts.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class ApprovalRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    void insert(ApprovalEntity entity) {
        em.persist(entity);
        em.flush();
    }

    Optional<Approval> get(String id) {
        return Optional.ofNullable(em.find(ApprovalEntity.class, id)).map(ApprovalEntity::view);
    }

    void attach(String id, String confirmationId) {
        em.createQuery("UPDATE ApprovalEntity a SET a.confirmationId = :c WHERE a.id = :id")
                .setParameter("c", confirmationId).setParameter("id", id).executeUpdate();
    }

    /**
     * Moves a pending request of {@code userId} (any user when null) to {@code decision}; a person's
     * answer only before it expires. Whether it moved.
     */
    boolean decide(String id, String userId, Approval.Decision decision, Approval.By by, Instant now) {
        String jpql = "UPDATE ApprovalEntity a SET a.decision = :d, a.decidedBy = :by, a.decidedAt = :now"
                + " WHERE a.id = :id AND a.decision = 'PENDING'"
                + (userId == null ? "" : " AND a.userId = :user")
                + (by == Approval.By.USER ? " AND a.expiresAt > :now" : "");
        var update = em.createQuery(jpql).setParameter("d", decision.name()).setParameter("by", by.name())
                .setParameter("now", now.toEpochMilli()).setParameter("id", id);
        if (userId != null) {
            update.setParameter("user", userId);
        }
        return update.executeUpdate() == 1;
    }

    /** Marks an approved call of this tool with these arguments as run; false when it is not approved, ran already or differs. */
    boolean markRan(String id, String tool, String argsHash) {
        return em.createQuery("UPDATE ApprovalEntity a SET a.ran = TRUE WHERE a.id = :id AND a.decision = 'APPROVED'"
                        + " AND a.ran = FALSE AND a.tool = :tool AND a.argsHash = :hash")
                .setParameter("id", id).setParameter("tool", tool).setParameter("hash", argsHash).executeUpdate() == 1;
    }

    Optional<java.time.Instant> lastApprovedRun(String sessionScope, String tool) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.sessionScope = :s AND a.tool = :t AND a.decision ="
                        + " 'APPROVED' AND a.ran = TRUE AND a.decidedBy = 'USER' ORDER BY a.decidedAt DESC", ApprovalEntity.class)
                .setParameter("s", sessionScope).setParameter("t", tool).setMaxResults(1)
                .getResultList().stream().findFirst().map(ApprovalEntity::view).flatMap(Approval::decidedAt);
    }

    /** The newest request for the model's call {@code callId} in the session. */
    Optional<Approval> forCall(String sessionScope, String callId) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.sessionScope = :s AND a.callId = :c"
                        + " AND (a.decidedBy IS NULL OR a.decidedBy <> 'POLICY') ORDER BY a.createdAt DESC", ApprovalEntity.class)
                .setParameter("s", sessionScope).setParameter("c", callId).setMaxResults(1)
                .getResultList().stream().findFirst().map(ApprovalEntity::view);
    }

    Optional<Approval> forConfirmation(String sessionScope, String confirmationId) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.sessionScope = :s AND a.confirmationId = :c",
                        ApprovalEntity.class)
                .setParameter("s", sessionScope).setParameter("c", confirmationId).setMaxResults(1)
                .getResultList().stream().findFirst().map(ApprovalEntity::view);
    }

    /** Every session with a request waiting. */
    List<String> sessionsWithPending() {
        return em.createQuery("SELECT DISTINCT a.sessionScope FROM ApprovalEntity a WHERE a.decision = 'PENDING'", String.class)
                .getResultList();
    }

    List<Approval> pendingInSession(String sessionScope) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.sessionScope = :s AND a.decision = 'PENDING'"
                        + " ORDER BY a.createdAt", ApprovalEntity.class)
                .setParameter("s", sessionScope).getResultList().stream().map(ApprovalEntity::view).toList();
    }

    /** The user's requests still answerable: pending and not past their time. */
    List<Approval> pendingOf(String userId, Instant now) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.userId = :u AND a.decision = 'PENDING'"
                        + " AND a.expiresAt > :now ORDER BY a.createdAt", ApprovalEntity.class)
                .setParameter("u", userId).setParameter("now", now.toEpochMilli()).getResultList().stream()
                .map(ApprovalEntity::view).toList();
    }

    /** Pending requests whose time ran out between {@code since} and {@code now}. */
    List<Approval> due(Instant since, Instant now, int limit) {
        return em.createQuery("SELECT a FROM ApprovalEntity a WHERE a.decision = 'PENDING' AND a.expiresAt <= :now"
                        + " AND a.expiresAt > :since ORDER BY a.expiresAt", ApprovalEntity.class)
                .setParameter("now", now.toEpochMilli()).setParameter("since", since.toEpochMilli()).setMaxResults(limit)
                .getResultList().stream().map(ApprovalEntity::view).toList();
    }

    /** The newest first, of the session {@code sessionKey} when given. */
    List<Approval> recent(String sessionKey, int limit) {
        var query = em.createQuery("SELECT a FROM ApprovalEntity a" + (sessionKey == null ? "" : " WHERE a.sessionKey = :k")
                + " ORDER BY a.createdAt DESC", ApprovalEntity.class).setMaxResults(limit);
        if (sessionKey != null) {
            query.setParameter("k", sessionKey);
        }
        return query.getResultList().stream().map(ApprovalEntity::view).toList();
    }
}
