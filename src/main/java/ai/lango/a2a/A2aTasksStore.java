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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * lango_a2a_tasks' units of work, each its own transaction: a task is written when it starts and at every
 * change of state (never per chunk). Changes that race (a cancel, a stale task failed by a reader, an
 * answer) are single UPDATEs guarded by the state they leave. A user keeps a bounded number of tasks (the
 * oldest finished ones go as new ones start), and a page of them is bounded in bytes as well as in count.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class A2aTasksStore {

    /** A stored task with what only the server knows of it: whose, in which session, what it waits for, who runs it. */
    public record Stored(Task task, String userId, String sessionKey, String approvalId, String runner, Instant heartbeatAt,
                         boolean cancelRequested) {
    }

    /** A page of tasks, and whether more follow it. */
    public record Page(List<Stored> tasks, boolean more) {
    }

    /** The states a task no longer leaves: such tasks are the ones a user's bound deletes. */
    private static final List<String> FINISHED = Arrays.stream(TaskState.values()).filter(TaskState::terminal)
            .map(Enum::name).toList();
    /** At most this many tasks are deleted at one start (a bound lowered by far is reached over the next starts). */
    private static final int PRUNED_AT_ONCE = 100;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /**
     * Stores a new task; when its user then has more than {@code kept}, the user's finished tasks that changed
     * last longest ago are deleted (tasks still running or waiting for input are kept).
     */
    public void insert(Stored stored, int kept) {
        em.persist(new A2aTaskEntity(stored, json(stored.task()), System.currentTimeMillis()));
        em.flush();
        long over = em.createQuery("SELECT COUNT(t) FROM A2aTaskEntity t WHERE t.userId = :u", Long.class)
                .setParameter("u", stored.userId()).getSingleResult() - kept;
        if (over <= 0) {
            return;
        }
        List<String> oldest = em.createQuery("SELECT t.id FROM A2aTaskEntity t WHERE t.userId = :u AND t.state IN :finished"
                        + " ORDER BY t.statusAt, t.id", String.class).setParameter("u", stored.userId())
                .setParameter("finished", FINISHED).setMaxResults((int) Math.min(over, PRUNED_AT_ONCE)).getResultList();
        if (!oldest.isEmpty()) {
            em.createQuery("DELETE FROM A2aTaskEntity t WHERE t.id IN :ids").setParameter("ids", oldest).executeUpdate();
        }
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
        String json = json(task);
        em.createQuery("UPDATE A2aTaskEntity t SET t.state = :s, t.task = :j, t.taskBytes = :b, t.approvalId = :a,"
                        + " t.runner = :r, t.statusAt = :at, t.heartbeatAt = :now WHERE t.id = :id")
                .setParameter("s", task.state().name()).setParameter("j", json).setParameter("b", utf8Bytes(json))
                .setParameter("a", approvalId).setParameter("r", runner)
                .setParameter("at", statusAt(task, System.currentTimeMillis()))
                .setParameter("now", System.currentTimeMillis()).setParameter("id", task.id()).executeUpdate();
    }

    /**
     * Moves a task from {@code expected} to the task given (its state), only if it still stands there:
     * whether it moved (false: something else moved it first).
     */
    public boolean move(Task task, TaskState expected, String runner) {
        String json = json(task);
        return em.createQuery("UPDATE A2aTaskEntity t SET t.state = :s, t.task = :j, t.taskBytes = :b, t.approvalId = NULL,"
                        + " t.runner = :r, t.statusAt = :at, t.heartbeatAt = :now WHERE t.id = :id AND t.state = :expected")
                .setParameter("s", task.state().name()).setParameter("j", json).setParameter("b", utf8Bytes(json))
                .setParameter("r", runner)
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

    /**
     * One page of a user's tasks, newest status first, after the position {@code token} names: at most {@code size}
     * tasks, and none that would take the page past {@code maxBytes} as stored (but always one, when there is one).
     * The tasks' ids and sizes are read first, and then only the tasks that fit.
     */
    public Page page(String userId, String contextId, TaskState state, Instant after, String token, int size, long maxBytes) {
        StringBuilder jpql = new StringBuilder("SELECT t.id, t.taskBytes FROM A2aTaskEntity t WHERE t.userId = :u");
        Position position = Position.of(token);
        where(jpql, contextId, state, after);
        if (position != null) {
            jpql.append(" AND (t.statusAt < :pa OR (t.statusAt = :pa AND t.id < :pid))");
        }
        jpql.append(" ORDER BY t.statusAt DESC, t.id DESC");
        TypedQuery<Object[]> query = em.createQuery(jpql.toString(), Object[].class).setParameter("u", userId);
        bind(query, contextId, state, after);
        if (position != null) {
            query.setParameter("pa", position.statusAt()).setParameter("pid", position.id());
        }
        List<Object[]> candidates = query.setMaxResults(size + 1).getResultList();
        List<String> ids = new ArrayList<>();
        long bytes = 0;
        for (Object[] candidate : candidates) {
            long taskBytes = ((Number) candidate[1]).longValue();
            if (ids.size() == size || (!ids.isEmpty() && bytes + taskBytes > maxBytes)) {
                break;
            }
            ids.add((String) candidate[0]);
            bytes += taskBytes;
        }
        if (ids.isEmpty()) {
            return new Page(List.of(), false);
        }
        Map<String, A2aTaskEntity> rows = new HashMap<>();
        em.createQuery("SELECT t FROM A2aTaskEntity t WHERE t.id IN :ids", A2aTaskEntity.class).setParameter("ids", ids)
                .getResultList().forEach(row -> rows.put(row.id(), row));
        // a task deleted in between is left out
        List<Stored> tasks = ids.stream().map(rows::get).filter(Objects::nonNull).map(A2aTasksStore::view).toList();
        return new Page(tasks, candidates.size() > ids.size());
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

    /** The length of {@code text} in UTF-8, without encoding it. */
    static long utf8Bytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // a surrogate pair is 4 bytes: 2 for each half
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }
}
