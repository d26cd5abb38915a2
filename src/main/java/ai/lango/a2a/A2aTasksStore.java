package ai.lango.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * lango_a2a_tasks' units of work, each its own transaction: a task is written when it starts and at every
 * change of state (never per chunk). Changes that race (a cancel, a stale task failed by a reader, an
 * answer) are single UPDATEs guarded by the state they leave.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class A2aTasksStore {

    /** A stored task with what only the server knows of it: whose, in which session, what it waits for, who runs it. */
    public record Stored(Task task, String userId, String sessionKey, String approvalId, String runner, Instant heartbeatAt,
                         boolean cancelRequested) {
    }

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    public void insert(Stored stored) {
        em.persist(new A2aTaskEntity(stored, json(stored.task()), System.currentTimeMillis()));
        em.flush();
    }

    /** The task of {@code userId} with this id; empty for another user's, as for one that does not exist. */
    public Optional<Stored> find(String id, String userId) {
        A2aTaskEntity row = em.find(A2aTaskEntity.class, id);
        return row == null || !row.userId().equals(userId) ? Optional.empty() : Optional.of(view(row));
    }

    /** The task waiting for this approval, if one does. */
    public Optional<Stored> waitingFor(String approvalId) {
        return em.createQuery("SELECT t FROM A2aTaskEntity t WHERE t.approvalId = :a AND t.state = 'INPUT_REQUIRED'",
                        A2aTaskEntity.class).setParameter("a", approvalId).setMaxResults(1).getResultList().stream()
                .findFirst().map(A2aTasksStore::view);
    }

    /** Writes the task as it stands now, waiting for {@code approvalId} (null: nothing), run by {@code runner} (null: nobody). */
    public void update(Task task, String approvalId, String runner) {
        em.createQuery("UPDATE A2aTaskEntity t SET t.state = :s, t.task = :j, t.approvalId = :a, t.runner = :r,"
                        + " t.statusAt = :at, t.heartbeatAt = :now WHERE t.id = :id")
                .setParameter("s", task.state().name()).setParameter("j", json(task)).setParameter("a", approvalId)
                .setParameter("r", runner).setParameter("at", statusAt(task, System.currentTimeMillis()))
                .setParameter("now", System.currentTimeMillis()).setParameter("id", task.id()).executeUpdate();
    }

    /**
     * Moves a task from {@code expected} to the task given (its state), only if it still stands there:
     * whether it moved (false: something else moved it first).
     */
    public boolean move(Task task, TaskState expected, String runner) {
        return em.createQuery("UPDATE A2aTaskEntity t SET t.state = :s, t.task = :j, t.approvalId = NULL, t.runner = :r,"
                        + " t.statusAt = :at, t.heartbeatAt = :now WHERE t.id = :id AND t.state = :expected")
                .setParameter("s", task.state().name()).setParameter("j", json(task)).setParameter("r", runner)
                .setParameter("at", statusAt(task, System.currentTimeMillis())).setParameter("now", System.currentTimeMillis())
                .setParameter("id", task.id()).setParameter("expected", expected.name()).executeUpdate() == 1;
    }

    /** The running tasks of this server are alive. */
    public void heartbeat(Collection<String> ids) {
        if (!ids.isEmpty()) {
            em.createQuery("UPDATE A2aTaskEntity t SET t.heartbeatAt = :now WHERE t.id IN :ids")
                    .setParameter("now", System.currentTimeMillis()).setParameter("ids", ids).executeUpdate();
        }
    }

    /** Of these tasks, those another server was asked to cancel. */
    public List<String> cancelRequested(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return em.createQuery("SELECT t.id FROM A2aTaskEntity t WHERE t.id IN :ids AND t.cancelRequested = TRUE", String.class)
                .setParameter("ids", ids).getResultList();
    }

    /** Asks the server running the task to cancel it; whether it still runs. */
    public boolean requestCancel(String id) {
        return em.createQuery("UPDATE A2aTaskEntity t SET t.cancelRequested = TRUE WHERE t.id = :id"
                + " AND t.state IN ('SUBMITTED', 'WORKING')").setParameter("id", id).executeUpdate() == 1;
    }

    /** One page of a user's tasks, newest status first, after the position {@code token} names. */
    public List<Stored> page(String userId, String contextId, TaskState state, Instant after, String token, int size) {
        StringBuilder jpql = new StringBuilder("SELECT t FROM A2aTaskEntity t WHERE t.userId = :u");
        Position position = Position.of(token);
        where(jpql, contextId, state, after);
        if (position != null) {
            jpql.append(" AND (t.statusAt < :pa OR (t.statusAt = :pa AND t.id < :pid))");
        }
        jpql.append(" ORDER BY t.statusAt DESC, t.id DESC");
        TypedQuery<A2aTaskEntity> query = em.createQuery(jpql.toString(), A2aTaskEntity.class).setParameter("u", userId);
        bind(query, contextId, state, after);
        if (position != null) {
            query.setParameter("pa", position.statusAt()).setParameter("pid", position.id());
        }
        return query.setMaxResults(size).getResultList().stream().map(A2aTasksStore::view).toList();
    }

    public int count(String userId, String contextId, TaskState state, Instant after) {
        StringBuilder jpql = new StringBuilder("SELECT COUNT(t) FROM A2aTaskEntity t WHERE t.userId = :u");
        where(jpql, contextId, state, after);
        TypedQuery<Long> query = em.createQuery(jpql.toString(), Long.class).setParameter("u", userId);
        bind(query, contextId, state, after);
        return query.getSingleResult().intValue();
    }

    private static void where(StringBuilder jpql, String contextId, TaskState state, Instant after) {
        if (contextId != null) {
            jpql.append(" AND t.contextId = :c");
        }
        if (state != null) {
            jpql.append(" AND t.state = :s");
        }
        if (after != null) {
            jpql.append(" AND t.statusAt > :after");
        }
    }

    private static void bind(TypedQuery<?> query, String contextId, TaskState state, Instant after) {
        if (contextId != null) {
            query.setParameter("c", contextId);
        }
        if (state != null) {
            query.setParameter("s", state.name());
        }
        if (after != null) {
            query.setParameter("after", after.toEpochMilli());
        }
    }

    /** Where the next page starts: after this task. */
    public static String token(Stored last) {
        String position = statusAt(last.task(), 0) + "|" + last.task().id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    private record Position(long statusAt, String id) {
        static Position of(String token) {
            if (token == null || token.isBlank()) {
                return null;
            }
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\\|", 2);
                return new Position(Long.parseLong(parts[0]), parts[1]);
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("pageToken is not one this server gave");
            }
        }
    }

    static long statusAt(Task task, long fallback) {
        return task.status() != null && task.status().timestamp() != null ? task.status().timestamp().toEpochMilli() : fallback;
    }

    private static Stored view(A2aTaskEntity row) {
        Task task;
        try {
            task = A2aWire.readTask(A2aJson.MAPPER.readTree(row.taskJson()));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("the stored A2A task " + row.id() + " cannot be read: " + e.getMessage(), e);
        }
        return new Stored(task, row.userId(), row.sessionKey(), row.approvalId(), row.runner(),
                Instant.ofEpochMilli(row.heartbeatAt()), row.cancelRequested());
    }

    static String json(Task task) {
        return A2aWire.task(A2aVersion.V1_0, task, null).toString();
    }
}
