package ai.lango.session;

import ai.lango.config.LangoSettings;
import ai.lango.turn.SessionRef;
import ai.lango.turn.ModelCall;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Durable sessions: their messages, tool calls and state. Every write is one transaction, so a
 * failure never leaves a half-written message behind. A session is named by its app, its user and
 * its key ({@link SessionRef}); ids are validated here, before any SQL.
 */
@ApplicationScoped
public class SessionStore {

    private static final java.util.logging.Logger LOG = ai.lango.masking.MaskedLogs.of(SessionStore.class);

    /**
     * A session as the runner reads it: its history cut to the budget, and the state it shares. {@code cut}: what the
     * budget cut off of what was read (oldest first; its last is the newest message that did not fit, and older ones
     * were not read at all), empty when the history is whole.
     */
    public record View(StoredSession session, List<Message> history, Map<String, Object> appState,
                       Map<String, Object> userState, List<Message> cut) {

        public View(StoredSession session, List<Message> history, Map<String, Object> appState,
                    Map<String, Object> userState) {
            this(session, history, appState, userState, List.of());
        }
    }

    /** The most messages one group commit writes. */
    private static final int MAX_GROUP = 64;

    /**
     * The longest a message of {@link #appendSoon} waits to join another write's transaction. A
     * user's message is handed in as the model is called, whose first chunk comes hundreds of
     * milliseconds later; a chunk that comes sooner writes it at once ({@link #awaitSoon}).
     */
    private static final Duration SOON_LINGER = Duration.ofMillis(50);

    @Inject
    jakarta.enterprise.event.Event<SessionDeleted> sessionDeleted;

    @Inject
    SessionRows rows;

    @Inject
    LangoSettings settings;

    /** Most appends are a message without state changes: concurrent turns commit theirs together. */
    private final GroupCommit<SessionRows.MessageAppend> messageCommits = new GroupCommit<>(
            new GroupCommit.Writer<>() {
                @Override
                public List<Boolean> writeAll(List<SessionRows.MessageAppend> batch) {
                    return rows.appendAll(batch);
                }

                @Override
                public boolean writeOne(SessionRows.MessageAppend append) {
                    return rows.append(append, StateDelta.NONE);
                }
            }, MAX_GROUP, SOON_LINGER);

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    /**
     * The threads {@link #appendSoon} writes on (container threads, so JPA and JTA work on them);
     * null outside the container, where it writes at once on the caller's thread. When all are busy,
     * the caller writes itself.
     */
    private ThreadPoolExecutor writers;

    /** The views kept between turns (only where this server is the database's only writer). */
    private SessionViews views = new SessionViews(false);

    @PostConstruct
    void start() {
        views = new SessionViews(settings != null && settings.database().kind().exclusive());
        if (threadFactory != null) {
            writers = new ThreadPoolExecutor(0, MAX_WRITERS, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threadFactory,
                    new ThreadPoolExecutor.CallerRunsPolicy());
        }
    }

    @PreDestroy
    void stopWriters() {
        if (writers != null) {
            writers.shutdown();
        }
    }

    /** Writes under way at once from {@link #appendSoon} beyond the group commit's own writer. */
    private static final int MAX_WRITERS = 16;

    /** The stored session, or empty. Never creates one; renews an expired one. */
    public Optional<StoredSession> find(SessionRef key) {
        requireIdentity(key);
        return Optional.ofNullable(rows.findRenewing(key, ttl()));
    }

    /** Creates a session; fails with {@link SessionExistsException} when its user already has one under its key. */
    public StoredSession create(SessionRef key, Map<String, Object> state) {
        requireIdentity(key);
        if (rows.findRenewing(key, ttl()) != null) {
            throw new SessionExistsException(key.key());
        }
        try {
            views.dropped(key);
            return rows.insert(key, state == null ? Map.of() : state);
        } catch (RuntimeException raced) {
            if (rows.findRenewing(key, ttl()) != null) {
                throw new SessionExistsException(key.key());
            }
            throw raced;
        }
    }

    /**
     * The session, created when unknown. Safe under concurrency: of many callers racing on a new
     * session one insert wins, and the others read what it wrote.
     */
    public StoredSession getOrCreate(SessionRef key) {
        requireIdentity(key);
        StoredSession found = rows.findRenewing(key, ttl());
        if (found != null) {
            return found;
        }
        try {
            views.dropped(key);
            return rows.insert(key, Map.of());
        } catch (RuntimeException raced) {
            StoredSession winner = rows.findRenewing(key, ttl());
            if (winner == null) {
                throw raced;
            }
            return winner;
        }
    }

    /**
     * The session (created when unknown, as {@link #getOrCreate}) with its history for
     * {@code budget} tokens (≤ 0: the default) and shared state, read in one transaction — or, where
     * this server is the database's only writer, as the last view with what was appended since.
     */
    public View open(SessionRef key, int budget) {
        requireIdentity(key);
        int effective = budget > 0 ? budget : HistoryTruncation.DEFAULT_BUDGET;
        Optional<View> kept = views.view(key, effective, ttl());
        if (kept.isPresent()) {
            return kept.get();
        }
        SessionViews.Snapshot read = read(key, effective);
        if (read == null) {
            getOrCreate(key);
            read = read(key, effective);
        }
        return read.view();
    }

    /**
     * The session's view as {@link #open} gives it — the one kept between turns where there is one, so no read —
     * without creating a session that is not there (empty then): for looks after a turn, such as compaction's check.
     */
    public Optional<View> peek(SessionRef key, int budget) {
        requireIdentity(key);
        int effective = budget > 0 ? budget : HistoryTruncation.DEFAULT_BUDGET;
        Optional<View> kept = views.view(key, effective, ttl());
        if (kept.isPresent()) {
            return kept;
        }
        SessionViews.Snapshot read = read(key, effective);
        return read == null ? Optional.empty() : Optional.of(read.view());
    }

    private SessionViews.Snapshot read(SessionRef key, int budget) {
        long before = views.beforeRead();
        SessionViews.Snapshot read = rows.view(key, ttl(), budget);
        views.read(key, read, before);
        return read;
    }

    /**
     * Appends one message ({@code null} for a pure state change) with its state changes, in one
     * transaction, committed when this returns; {@code when} becomes the session's last update time.
     */
    public void append(SessionRef key, Message message, StateDelta delta, Instant when) {
        append(key, message, delta, when, List.of());
    }

    /**
     * The same, with the usage of the model calls whose answer {@code message} is (ai.lango.usage), committed in the
     * same transaction.
     */
    public void append(SessionRef key, Message message, StateDelta delta, Instant when, List<ModelCall> usage) {
        append(new SessionRows.MessageAppend(key, message, when, usage, null), delta);
    }

    private void append(SessionRows.MessageAppend append, StateDelta delta) {
        SessionRef key = append.key();
        requireIdentity(key);
        if (!delta.app().isEmpty() || !delta.user().isEmpty()) {
            // Shared rows are created first, each in its own transaction, so the append never races on an insert.
            StoredSession session = find(key).orElseThrow(() -> new UnknownSessionException(key.key()));
            if (!delta.app().isEmpty()) {
                rows.ensureShared(SharedStateEntity.appScope(session.appName()));
            }
            if (!delta.user().isEmpty()) {
                rows.ensureShared(SharedStateEntity.userScope(session.appName(), session.userId()));
            }
        }
        boolean appended;
        try {
            appended = append.message() != null && delta.isEmpty() ? messageCommits.submit(append) : rows.append(append, delta);
        } catch (RuntimeException failed) {
            views.dropped(key);
            throw failed;
        }
        committed(key, appended, append.message(), delta, append.when());
    }

    /** After an append's transaction: the kept view follows it; an unknown session fails the append. */
    private void committed(SessionRef key, boolean appended, Message message, StateDelta delta, Instant when) {
        if (!appended) {
            views.dropped(key);
            throw new UnknownSessionException(key.key());
        }
        views.appended(key, message, delta, when, ttl());
    }

    /**
     * As {@link #append}, without waiting: the future completes once the write committed (or fails
     * with what {@link #append} would have thrown). What the caller does meanwhile — call the model —
     * overlaps the commit; it must wait for the future before it tells anyone the write happened.
     */
    public CompletableFuture<Void> appendSoon(SessionRef key, Message message, StateDelta delta, Instant when) {
        return appendSoon(key, message, delta, when, null);
    }

    /** The same, with the write of the turn whose run {@code message} starts (null: none), in the same transaction. */
    public CompletableFuture<Void> appendSoon(SessionRef key, Message message, StateDelta delta, Instant when,
                                              TurnRecord.Begin turn) {
        SessionRows.MessageAppend append = new SessionRows.MessageAppend(key, message, when, List.of(), turn);
        if (writers == null) {
            try {
                append(append, delta);
                return CompletableFuture.completedFuture(null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        requireIdentity(key);
        if (message != null && delta.isEmpty()) {
            return messageCommits.submitAsync(append, writers)
                    .whenComplete((appended, failed) -> {
                        if (failed != null) {
                            views.dropped(key);
                        }
                    })
                    .thenAccept(appended -> committed(key, appended, message, delta, when));
        }
        return CompletableFuture.runAsync(() -> append(append, delta), writers);
    }

    /**
     * Writes how a turn's run ended ({@link TurnRows#ending}) in the next group commit, with the appends of other
     * turns: committed when this returns, for the cost of a statement rather than a transaction and an fsync of its own.
     */
    public void turnEnded(TurnRecord.End end) {
        messageCommits.submit(SessionRows.MessageAppend.ended(end));
    }

    /**
     * As {@link #turnEnded}, without waiting: for a run that ended done, whose answer is stored already. Should the
     * server stop before it is written, the turn's stored events say it ended (a resume finds it over and records its
     * end then); and a later turn's write of the same session comes after it in the same queue.
     */
    public void turnEndedSoon(TurnRecord.End end) {
        if (writers == null) {
            turnEnded(end);
            return;
        }
        messageCommits.submitAsync(SessionRows.MessageAppend.ended(end), writers).whenComplete((written, failed) -> {
            if (failed != null) {
                LOG.log(java.util.logging.Level.WARNING, "the end of turn " + end.id() + " was not written; a restart finds it over", failed);
            }
        });
    }

    /**
     * Returns once {@code soon} (from {@link #appendSoon}) is done — join it for the outcome. A
     * message still waiting to join another write's transaction is written now.
     */
    public void awaitSoon(CompletableFuture<Void> soon) {
        messageCommits.await(soon);
    }

    /** History for the model: the newest messages that fit {@code budget} tokens (≤ 0: the default). */
    public List<Message> history(SessionRef key, int budget) {
        int effective = budget > 0 ? budget : HistoryTruncation.DEFAULT_BUDGET;
        return HistoryTruncation.truncate(rows.newestWindow(requireIdentity(key), effective), effective);
    }

    /** Every stored message of the session, oldest first. */
    public List<Message> messages(SessionRef key) {
        return rows.messages(requireIdentity(key), 0, Long.MIN_VALUE);
    }

    /** The newest {@code limit} messages (all when ≤ 0) stored at or after {@code after}, oldest first. */
    public List<Message> messages(SessionRef key, int limit, Instant after) {
        return rows.messages(requireIdentity(key), limit,
                after == null ? Long.MIN_VALUE : after.toEpochMilli());
    }

    /** The session's newest compaction (its summary, stored as a message of role {@link Roles#COMPACTION}), if any. */
    public Optional<Message> newestCompaction(SessionRef key) {
        return rows.newestCompaction(requireIdentity(key));
    }

    /** A stored message with its row id and token count, for readers that remember how far they read. */
    public record Numbered(long id, int tokens, Message message) {
    }

    /** The session's row id: what rows of other subsystems refer to. */
    public Optional<Long> id(SessionRef key) {
        return rows.id(requireIdentity(key));
    }

    /** The tokens (as stored with each message) of the session's messages after message {@code afterId}. */
    public long tokensAfter(long sessionId, long afterId) {
        return rows.tokensAfter(sessionId, afterId);
    }

    /** At most {@code limit} of the session's messages after message {@code afterId}, oldest first. */
    public List<Numbered> messagesAfter(long sessionId, long afterId, int limit) {
        return rows.messagesAfter(sessionId, afterId, limit);
    }

    /**
     * The sessions of one user of one app, most recently updated first, without messages; the sessions eval runs
     * replayed cases in are left out (as ADK's own server leaves them out), though each may still be read by its id.
     */
    public List<StoredSession> list(String appName, String userId) {
        return rows.list(appName, userId).stream().filter(s -> !ai.lango.turn.Names.isEvalSession(s.key())).toList();
    }

    /** How many sessions the user has. */
    public long countOf(String userId) {
        return rows.countOf(userId);
    }

    /** A page of every session (for operators), most recently updated first, and how many there are. */
    public record Page(List<StoredSession> sessions, long total) {
    }

    /** {@code limit} sessions from {@code offset} on, and how many there are. */
    public Page page(int offset, int limit) {
        return new Page(rows.page(offset, limit), rows.count());
    }

    /** The sessions of every user stored under {@code key}, oldest first (for operators). */
    public List<StoredSession> withKey(String key) {
        return rows.withKey(SessionKeys.require("session key", key));
    }

    /** Deletes the session with its messages; false when there was none. */
    public boolean delete(SessionRef key) {
        views.dropped(key);
        boolean deleted = rows.delete(requireIdentity(key));
        views.dropped(key);
        if (deleted) {
            sessionDeleted.fire(new SessionDeleted(key));
        }
        return deleted;
    }

    /** State shared by every session of the app ("app:" keys, stored without the prefix). */
    public Map<String, Object> appState(String appName) {
        return rows.sharedState(SharedStateEntity.appScope(appName));
    }

    /** State shared by the sessions of one user ("user:" keys, stored without the prefix). */
    public Map<String, Object> userState(String appName, String userId) {
        return rows.sharedState(SharedStateEntity.userScope(appName, userId));
    }

    /** The session's own state. */
    public Map<String, Object> state(SessionRef key) {
        return find(key).map(StoredSession::state).orElseThrow(() -> new UnknownSessionException(key.key()));
    }

    /** One value of the session's state, as a JSON round trip returns it. */
    public Optional<Object> state(SessionRef key, String name) {
        return Optional.ofNullable(state(key).get(name));
    }

    private Duration ttl() {
        return settings.sessions().ttl();
    }

    private static SessionRef requireIdentity(SessionRef key) {
        SessionKeys.require("session key", key.key());
        SessionKeys.require("app name", key.appName());
        SessionKeys.require("user id", key.userId());
        return key;
    }
}
