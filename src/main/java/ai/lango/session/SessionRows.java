package ai.lango.session;

import ai.lango.config.LangoSettings;
import ai.lango.turn.SessionRef;
import jakarta.annotation.PostConstruct;
import ai.lango.turn.ModelCall;
import ai.lango.usage.UsageEntity;
import ai.lango.usage.UsageRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional.TxType;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store's units of work, each one transaction. Kept apart from {@link SessionStore} because
 * an insert that may lose a race must run in a transaction of its own and CDI interceptors do not
 * apply to calls a bean makes on itself; the store composes these units.
 */
@ApplicationScoped
@Transactional
class SessionRows {

    /** Rows read per step while walking a session's history newest-first. */
    private static final int PAGE = 128;

    /** EclipseLink query hints: fetch a collection for all result rows in one extra query. */
    private static final String BATCH = "eclipselink.batch";
    private static final String BATCH_TYPE = "eclipselink.batch.type";
    /** Objects read only to be converted are not registered for change tracking (no clone, no backup copy). */
    private static final String READ_ONLY = "eclipselink.read-only";

    /** One session, by the columns of its unique constraint (V7 migration): its id is its user's own. */
    private static final String IS_SESSION = "s.appName = :app AND s.userId = :user AND s.key = :key";

    /** How many session ids {@link #sessionIds} keeps before it starts again. */
    private static final int REMEMBERED_IDS = 10_000;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    @Inject
    LangoSettings settings;

    /**
     * HSQLDB answers "the newest messages of a session" from the foreign key's one-column index and
     * sorts the whole session; only its own USING INDEX clause makes it walk (session_id, id DESC).
     */
    boolean hsqldb;

    @PostConstruct
    void dialect() {
        hsqldb = settings.database().kind() == LangoSettings.DbKind.HSQLDB;
    }

    /** A session's update time, which also takes its row lock. */
    private static final String TOUCH = "UPDATE lango_sessions SET updated_at = ? WHERE id = ?";

    /** {@link MessageEntity#INSERT} with each database's next value of the messages' sequence. */
    private static final String INSERT_HSQLDB = MessageEntity.INSERT.formatted(nextValue("lango_messages_seq", true));
    private static final String INSERT_POSTGRESQL = MessageEntity.INSERT.formatted(nextValue("lango_messages_seq", false));

    /** A sequence's next value, in each database's words. */
    private static String nextValue(String sequence, boolean hsqldb) {
        return hsqldb ? "NEXT VALUE FOR " + sequence : "nextval('" + sequence + "')";
    }

    /**
     * Session row ids by session, so that appending a message that changes no state needs no lookup.
     * Ids come from a sequence and are never reused: a remembered id is the session's or no session's
     * at all (deleted, perhaps by another server), and then the append looks the session up again.
     */
    private final Map<SessionRef, Long> sessionIds = new ConcurrentHashMap<>();

    /** The session, emptied first when it has been idle longer than {@code ttl}. */
    StoredSession findRenewing(SessionRef key, Duration ttl) {
        SessionEntity session = renewing(key, ttl);
        return session == null ? null : view(session);
    }

    private SessionEntity renewing(SessionRef key, Duration ttl) {
        SessionEntity session = byKey(key, false);
        if (session == null) {
            return null;
        }
        remember(key, session.id());
        Instant now = Instant.now();
        if (!expired(session, ttl, now)) {
            return session;
        }
        // Read again under the row lock: a turn may have renewed it since.
        session = byKey(key, true);
        if (session != null && expired(session, ttl, now)) {
            em.createQuery("DELETE FROM MessageEntity m WHERE m.sessionId = :id")
                    .setParameter("id", session.id()).executeUpdate();
            session.state(StateJson.write(Map.of()));
            session.renew(now);
        }
        return session;
    }

    private static boolean expired(SessionEntity session, Duration ttl, Instant now) {
        return expired(session.updatedAt(), ttl, now);
    }

    static boolean expired(Instant updatedAt, Duration ttl, Instant now) {
        return !ttl.isZero() && updatedAt.plus(ttl).isBefore(now);
    }

    /**
     * Everything the runner needs of a session, in one transaction: the session (renewed if
     * expired), its newest window for {@code budget} and the shared state; null when unknown.
     */
    SessionViews.Snapshot view(SessionRef key, Duration ttl, int budget) {
        SessionEntity session = renewing(key, ttl);
        if (session == null) {
            return null;
        }
        String app = SharedStateEntity.appScope(session.appName());
        String user = SharedStateEntity.userScope(session.appName(), session.userId());
        Map<String, String> shared = sharedStates(List.of(app, user));
        return new SessionViews.Snapshot(session.key(), session.appName(), session.userId(), session.state(),
                session.createdAt().toEpochMilli(), session.updatedAt().toEpochMilli(),
                newestWindow(session.id(), budget), shared.get(app), shared.get(user), budget);
    }

    /**
     * Inserts a session in its own transaction; a duplicate (app, user, key) fails here, at the flush. Its id is taken
     * from the sequence here, not by EclipseLink: EclipseLink's preallocation takes one lock for every persist, which a
     * burst of new sessions spun on (9% of the server's CPU at 400 sessions starting at once, in a flight recording).
     * The sequence steps by 50, so an id taken here is never in a block EclipseLink preallocated.
     */
    @Transactional(TxType.REQUIRES_NEW)
    StoredSession insert(SessionRef ref, Map<String, Object> state) {
        long id = ((Number) em.createNativeQuery("VALUES (" + nextValue("lango_sessions_seq", hsqldb) + ")")
                .getSingleResult()).longValue();
        SessionEntity session = new SessionEntity(id, ref.key(), ref.appName(), ref.userId(), StateJson.write(state), Instant.now());
        em.persist(session);
        em.flush();
        return view(session);
    }

    /** Creates a shared-state row if missing, in its own transaction, so racing creators cannot fail an append. */
    @Transactional(TxType.REQUIRES_NEW)
    void ensureShared(String scope) {
        if (em.find(SharedStateEntity.class, scope) == null) {
            em.persist(new SharedStateEntity(scope, StateJson.write(Map.of())));
            em.flush();
        }
    }

    /**
     * One message (or none) and its state changes. The session row is locked, by the update of its
     * time or by reading it for update, so appends to one session serialise and state merges see
     * each other. A message without state changes (most of them) is two statements.
     */
    boolean append(SessionRef key, Message message, StateDelta delta, Instant when) {
        return append(new MessageAppend(key, message, when), delta);
    }

    /**
     * {@code append}'s message with its state changes (any), the usage it carries and the write of the turn it starts
     * or continues, in one transaction.
     */
    boolean append(MessageAppend append, StateDelta delta) {
        SessionRef key = append.key();
        Message message = append.message();
        if ((message != null || append.end() != null) && delta.isEmpty()) {
            return appendMessage(append);
        }
        SessionEntity session = byKey(key, true);
        if (session == null) {
            sessionIds.remove(key);
            return false;
        }
        remember(key, session.id());
        if (message != null) {
            em.persist(new MessageEntity(session.id(), message));
        }
        append.usage().forEach(call -> em.persist(new UsageEntity(call)));
        if (append.turn() != null) {
            try {
                TurnRows.write(em.unwrap(Connection.class), append.turn());
            } catch (SQLException e) {
                throw new PersistenceException("writing a turn failed: " + e.getMessage(), e);
            }
        }
        if (!delta.session().isEmpty()) {
            session.state(StateJson.apply(session.state(), delta.session()));
        }
        applyShared(SharedStateEntity.appScope(session.appName()), delta.app());
        applyShared(SharedStateEntity.userScope(session.appName(), session.userId()), delta.user());
        session.touch(append.when());
        return true;
    }

    /**
     * A message appended to the session, which then was last updated {@code when}; with the usage of the model calls it
     * answers, and the write of the turn whose run it starts ({@code turn}, or null), in the same transaction.
     */
    record MessageAppend(SessionRef key, Message message, Instant when, List<ModelCall> usage, TurnRecord.Begin turn,
                         TurnRecord.End end) {

        MessageAppend(SessionRef key, Message message, Instant when) {
            this(key, message, when, List.of(), null, null);
        }

        MessageAppend(SessionRef key, Message message, Instant when, List<ModelCall> usage, TurnRecord.Begin turn) {
            this(key, message, when, usage, turn, null);
        }

        /** No message: how a turn's run ended, riding along with the appends of other turns. */
        static MessageAppend ended(TurnRecord.End end) {
            return new MessageAppend(null, null, end.at(), List.of(), null, end);
        }
    }

    /** Several messages in one transaction (a group commit); for each, false when its session is unknown. */
    @Transactional(TxType.REQUIRES_NEW)
    List<Boolean> appendAll(List<MessageAppend> appends) {
        return appendMessages(appends);
    }

    private boolean appendMessage(MessageAppend append) {
        return appendMessages(List.of(append)).get(0);
    }

    /**
     * Messages without state changes, each with its session's update time (which takes the session's
     * row lock). Sessions whose ids are remembered and messages without tool calls are written over
     * the transaction's own JDBC connection, in one batch each: EclipseLink's unit of work for every
     * message was a third of a group commit's CPU under load (flight recording in docs/benchmarks.md).
     */
    private List<Boolean> appendMessages(List<MessageAppend> appends) {
        Connection connection = em.unwrap(Connection.class);
        try {
            Long[] ids = touchKnown(connection, appends);
            List<Boolean> appended = new ArrayList<>(appends.size());
            List<MessageEntity> rows = new ArrayList<>();
            List<ModelCall> usage = new ArrayList<>();
            List<TurnRecord.Begin> turns = new ArrayList<>();
            List<TurnRecord.End> ends = new ArrayList<>();
            for (int i = 0; i < appends.size(); i++) {
                MessageAppend append = appends.get(i);
                if (append.message() == null) { // a turn's end alone
                    ends.add(append.end());
                    appended.add(true);
                    continue;
                }
                Long id = ids[i] != null ? ids[i] : lockAndTouch(append);
                appended.add(id != null);
                if (id != null) {
                    usage.addAll(append.usage());
                    if (append.turn() != null) {
                        turns.add(append.turn());
                    }
                    MessageEntity row = new MessageEntity(id, append.message());
                    if (row.alone()) {
                        rows.add(row);
                    } else {
                        em.persist(row); // with its tool call rows, at the commit
                    }
                }
            }
            insert(connection, rows);
            UsageRows.insert(connection, usage);
            TurnRows.write(connection, turns);
            TurnRows.end(connection, ends);
            return appended;
        } catch (SQLException e) {
            throw new PersistenceException("appending messages failed: " + e.getMessage(), e);
        }
    }

    /** Sets the update time of each session whose id is remembered; its id where that found the row, else null. */
    private Long[] touchKnown(Connection connection, List<MessageAppend> appends) throws SQLException {
        Long[] ids = new Long[appends.size()];
        List<Integer> touched = new ArrayList<>();
        try (PreparedStatement touch = connection.prepareStatement(TOUCH)) {
            for (int i = 0; i < appends.size(); i++) {
                Long known = appends.get(i).key() == null ? null : sessionIds.get(appends.get(i).key());
                if (known != null) {
                    touch.setLong(1, appends.get(i).when().toEpochMilli());
                    touch.setLong(2, known);
                    touch.addBatch();
                    touched.add(i);
                    ids[i] = known;
                }
            }
            if (touched.isEmpty()) {
                return ids;
            }
            int[] counts = touch.executeBatch();
            for (int j = 0; j < touched.size(); j++) {
                if (counts[j] == 0) {
                    ids[touched.get(j)] = null; // that id's session is gone: look the key up again
                }
            }
        }
        return ids;
    }

    /** Looks the session up under its row lock and sets its update time; its id, or null when unknown. */
    private Long lockAndTouch(MessageAppend append) {
        SessionEntity session = byKey(append.key(), true);
        if (session == null) {
            sessionIds.remove(append.key());
            return null;
        }
        remember(append.key(), session.id());
        session.touch(append.when());
        return session.id();
    }

    private void insert(Connection connection, List<MessageEntity> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(hsqldb ? INSERT_HSQLDB : INSERT_POSTGRESQL)) {
            for (MessageEntity row : rows) {
                row.bind(insert);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private void remember(SessionRef key, Long id) {
        if (sessionIds.size() >= REMEMBERED_IDS) {
            sessionIds.clear(); // only a shortcut: forgetting costs one lookup per session
        }
        sessionIds.put(key, id);
    }

    private void applyShared(String scope, Map<String, Object> delta) {
        if (delta.isEmpty()) {
            return;
        }
        SharedStateEntity shared = em.find(SharedStateEntity.class, scope, LockModeType.PESSIMISTIC_WRITE);
        shared.state(StateJson.apply(shared.state(), delta));
    }

    Map<String, Object> sharedState(String scope) {
        SharedStateEntity shared = em.find(SharedStateEntity.class, scope);
        return shared == null ? Map.of() : StateJson.read(shared.state());
    }

    /** The state (JSON) of each of {@code scopes} that has a row, in one query. */
    private Map<String, String> sharedStates(List<String> scopes) {
        Map<String, String> states = new HashMap<>();
        for (SharedStateEntity shared : em.createQuery(
                        "SELECT s FROM SharedStateEntity s WHERE s.scope IN :scopes", SharedStateEntity.class)
                .setParameter("scopes", scopes).setHint(READ_ONLY, true).getResultList()) {
            states.put(shared.scope(), shared.state());
        }
        return states;
    }

    /**
     * The newest messages whose tokens, summed newest-first, reach past {@code budget}: every
     * message that fits plus the first that does not (so {@link HistoryTruncation} sees that
     * something was cut and gives the same answer as on the whole history), oldest first. Reads id and token count only, page by page, then loads just that window.
     */
    List<Message> newestWindow(SessionRef key, int budget) {
        Long sessionId = sessionId(key);
        return sessionId == null ? List.of() : newestWindow(sessionId, budget);
    }

    private List<Message> newestWindow(long sessionId, int budget) {
        Window window = walkedWindow(sessionId, budget);
        // Rows stored before the estimate counted a tool result once carry up to twice the count it gives now: a window
        // their counts cut may then fit whole, and truncation would take it for the whole history (not starting it at a
        // user message). Such a window is walked again with twice the reach, which holds a message that does not fit.
        if (window.cut() && HistoryTruncation.fittingStart(window.messages(), budget) == 0) {
            window = walkedWindow(sessionId, 2L * budget);
        }
        return window.messages();
    }

    /** A window of a session's newest messages, and whether older ones were left out. */
    private record Window(List<Message> messages, boolean cut) {
    }

    /** The newest messages whose stored counts, summed newest-first, reach past {@code reach} (the first that does too). */
    private Window walkedWindow(long sessionId, long reach) {
        long oldestId = Long.MAX_VALUE;
        long used = 0;
        int read = 0;
        boolean cut = false;
        List<Long> ids = new ArrayList<>();
        walk:
        while (true) {
            List<Object[]> page = newestPage(sessionId, oldestId);
            for (Object[] row : page) {
                oldestId = ((Number) row[0]).longValue();
                ids.add(oldestId);
                used += ((Number) row[1]).intValue();
                read++;
                // The newest message is always kept, so the first one that cannot fit is at least the second.
                if (used > reach && read >= 2) {
                    cut = true;
                    break walk;
                }
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        if (read == 0) {
            return new Window(List.of(), false);
        }
        // The window with its tool calls in one query: a joined row per call, so each message comes
        // once per call (or once, without calls), in id order. On HSQLDB by the ids just walked (its
        // primary key): a range on the session's index would again read the whole session.
        if (hsqldb) {
            return new Window(load(List.copyOf(new LinkedHashSet<>(em.createQuery(
                            "SELECT m FROM MessageEntity m LEFT JOIN FETCH m.toolCalls WHERE m.id IN :ids ORDER BY m.id",
                            MessageEntity.class)
                    .setParameter("ids", ids)
                    .setHint(READ_ONLY, true)
                    .getResultList()))), cut);
        }
        return new Window(load(List.copyOf(new LinkedHashSet<>(em.createQuery(
                        "SELECT m FROM MessageEntity m LEFT JOIN FETCH m.toolCalls"
                                + " WHERE m.sessionId = :sid AND m.id >= :from ORDER BY m.id",
                        MessageEntity.class)
                .setParameter("sid", sessionId)
                .setParameter("from", oldestId)
                .setHint(READ_ONLY, true)
                .getResultList()))), cut);
    }

    /**
     * One page of (id, tokens) of a session's messages below {@code below}, newest first: keyset
     * paging down the (session_id, id DESC) index. Ordering by both index columns is what lets H2
     * read the index in order rather than sort.
     */
    @SuppressWarnings("unchecked")
    private List<Object[]> newestPage(long sessionId, long below) {
        if (hsqldb) {
            return em.createNativeQuery("SELECT id, tokens FROM lango_messages WHERE session_id = ? AND id < ?"
                            + " ORDER BY session_id DESC, id DESC LIMIT " + PAGE + " USING INDEX")
                    .setParameter(1, sessionId)
                    .setParameter(2, below)
                    .getResultList();
        }
        return em.createQuery(
                        "SELECT m.id, m.tokens FROM MessageEntity m"
                                + " WHERE m.sessionId = :sid AND m.id < :below ORDER BY m.sessionId, m.id DESC",
                        Object[].class)
                .setParameter("sid", sessionId)
                .setParameter("below", below)
                .setMaxResults(PAGE)
                .getResultList();
    }

    /** All messages, or the newest {@code limit} (when &gt; 0) at or after {@code afterMillis}, oldest first. */
    List<Message> messages(SessionRef key, int limit, long afterMillis) {
        Long sessionId = sessionId(key);
        if (sessionId == null) {
            return List.of();
        }
        var query = em.createQuery(
                        "SELECT m FROM MessageEntity m WHERE m.sessionId = :sid AND m.createdAt >= :after"
                                + " ORDER BY m.sessionId, m.id DESC",
                        MessageEntity.class)
                .setParameter("sid", sessionId)
                .setParameter("after", afterMillis)
                .setHint(BATCH, "m.toolCalls").setHint(BATCH_TYPE, "IN").setHint(READ_ONLY, true);
        if (limit > 0) {
            query.setMaxResults(limit);
        }
        List<MessageEntity> newestFirst = new ArrayList<>(query.getResultList());
        Collections.reverse(newestFirst);
        return load(newestFirst);
    }

    /** The session's newest compaction (a message of role {@link Roles#COMPACTION}), if it has one. */
    Optional<Message> newestCompaction(SessionRef key) {
        Long sessionId = sessionId(key);
        if (sessionId == null) {
            return Optional.empty();
        }
        List<MessageEntity> found = em.createQuery("SELECT m FROM MessageEntity m WHERE m.sessionId = :sid AND m.role = :role"
                        + " ORDER BY m.sessionId, m.id DESC", MessageEntity.class)
                .setParameter("sid", sessionId).setParameter("role", Roles.COMPACTION)
                .setHint(READ_ONLY, true).setMaxResults(1).getResultList();
        return found.isEmpty() ? Optional.empty() : Optional.of(load(found).get(0));
    }

    /** The session's row id, if stored. */
    Optional<Long> id(SessionRef key) {
        return Optional.ofNullable(sessionId(key));
    }

    /** The tokens of a session's messages after message {@code afterId}. */
    long tokensAfter(long sessionId, long afterId) {
        Number sum = em.createQuery("SELECT SUM(m.tokens) FROM MessageEntity m WHERE m.sessionId = :sid AND m.id > :after",
                        Number.class)
                .setParameter("sid", sessionId).setParameter("after", afterId).getSingleResult();
        return sum == null ? 0 : sum.longValue();
    }

    /** At most {@code limit} messages after message {@code afterId}, oldest first, with their ids. */
    List<SessionStore.Numbered> messagesAfter(long sessionId, long afterId, int limit) {
        return em.createQuery("SELECT m FROM MessageEntity m WHERE m.sessionId = :sid AND m.id > :after"
                                + " ORDER BY m.sessionId, m.id", MessageEntity.class)
                .setParameter("sid", sessionId).setParameter("after", afterId)
                .setHint(BATCH, "m.toolCalls").setHint(BATCH_TYPE, "IN").setHint(READ_ONLY, true)
                .setMaxResults(limit).getResultList().stream()
                .map(m -> new SessionStore.Numbered(m.id(), m.tokens(), m.toMessage())).toList();
    }

    List<StoredSession> list(String appName, String userId) {
        return em.createQuery(
                        "SELECT s FROM SessionEntity s WHERE s.appName = :app AND s.userId = :user ORDER BY s.updatedAt DESC",
                        SessionEntity.class)
                .setParameter("app", appName)
                .setParameter("user", userId)
                .getResultList().stream().map(SessionRows::view).toList();
    }

    /** The sessions of every user stored under {@code key}, oldest first (for operators). */
    List<StoredSession> withKey(String key) {
        return em.createQuery("SELECT s FROM SessionEntity s WHERE s.key = :key ORDER BY s.id", SessionEntity.class)
                .setParameter("key", key)
                .getResultList().stream().map(SessionRows::view).toList();
    }

    /** {@code limit} sessions from {@code offset} on, most recently updated first. */
    List<StoredSession> page(int offset, int limit) {
        return em.createQuery("SELECT s FROM SessionEntity s ORDER BY s.updatedAt DESC, s.id DESC", SessionEntity.class)
                .setFirstResult(offset).setMaxResults(limit)
                .getResultList().stream().map(SessionRows::view).toList();
    }

    long count() {
        return em.createQuery("SELECT COUNT(s) FROM SessionEntity s", Long.class).getSingleResult();
    }

    /** How many sessions the user has, in every app. */
    long countOf(String userId) {
        return em.createQuery("SELECT COUNT(s) FROM SessionEntity s WHERE s.userId = :user", Long.class)
                .setParameter("user", userId).getSingleResult();
    }

    /** Deletes the session; its messages and tool calls go with it (ON DELETE CASCADE). */
    boolean delete(SessionRef key) {
        sessionIds.remove(key);
        return em.createQuery("DELETE FROM SessionEntity s WHERE " + IS_SESSION)
                .setParameter("app", key.appName()).setParameter("user", key.userId()).setParameter("key", key.key())
                .executeUpdate() > 0;
    }

    private Long sessionId(SessionRef key) {
        List<Long> ids = em.createQuery("SELECT s.id FROM SessionEntity s WHERE " + IS_SESSION, Long.class)
                .setParameter("app", key.appName()).setParameter("user", key.userId()).setParameter("key", key.key())
                .getResultList();
        return ids.isEmpty() ? null : ids.get(0);
    }

    /** The session row: locked and managed, so changes to it are written, or else a read-only copy. */
    private SessionEntity byKey(SessionRef key, boolean forUpdate) {
        var query = em.createQuery("SELECT s FROM SessionEntity s WHERE " + IS_SESSION, SessionEntity.class)
                .setParameter("app", key.appName()).setParameter("user", key.userId()).setParameter("key", key.key());
        if (forUpdate) {
            query.setLockMode(LockModeType.PESSIMISTIC_WRITE);
        } else {
            query.setHint(READ_ONLY, true);
        }
        List<SessionEntity> found = query.getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /** Converts entities whose tool calls the query fetched with them. */
    private static List<Message> load(List<MessageEntity> entities) {
        return entities.stream().map(MessageEntity::toMessage).toList();
    }

    static StoredSession view(SessionEntity s) {
        return new StoredSession(s.key(), s.appName(), s.userId(), StateJson.read(s.state()),
                s.createdAt(), s.updatedAt());
    }
}
