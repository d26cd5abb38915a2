package ai.lango.session;

import ai.lango.turn.SessionRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the next turn's view of a session is made from, kept between turns where this server is
 * the database's only writer (the embedded database): the view read last, with what was appended
 * since applied to it exactly as the database stores it — so a turn reads no session, no shared
 * state and no history. Every write of the store reports here once committed: an append is applied;
 * anything else that changes a session (deleting or creating it, state shared with other sessions,
 * a renewal after expiry) drops what is kept, and the next view is read again. A view read while a
 * write of its session committed is not kept (it may predate the write).
 */
final class SessionViews {

    /** Sessions kept at most; beyond, all are dropped and read again as they are used. */
    static final int MAX_KEPT = 10_000;

    /**
     * Characters kept at most, over all sessions (messages, their tool calls, the JSON of states):
     * a window is up to a token budget of text, and one message alone may be a megabyte. Beyond,
     * all are dropped and read again as they are used.
     */
    static final long MAX_KEPT_CHARS = 16_000_000;

    /**
     * A session as one transaction read it: its row, the newest messages for {@code budget} (every
     * one that fits plus the first that does not, or all), and the shared state rows (null: none).
     */
    record Snapshot(String key, String appName, String userId, String stateJson, long createdAt, long updatedAt,
                    List<Message> window, String appStateJson, String userStateJson, int budget) {

        SessionStore.View view() {
            List<Message> history = HistoryTruncation.truncate(window, budget);
            return new SessionStore.View(
                    new StoredSession(key, appName, userId, StateJson.read(stateJson), Instant.ofEpochMilli(createdAt),
                            Instant.ofEpochMilli(updatedAt)),
                    history, shared(appStateJson), shared(userStateJson),
                    window.subList(0, window.size() - history.size()));
        }

        private static Map<String, Object> shared(String json) {
            return json == null ? Map.of() : StateJson.read(json);
        }

        /** About what it holds in memory, in characters. */
        long chars() {
            long chars = length(stateJson) + length(appStateJson) + length(userStateJson);
            for (Message message : window) {
                chars += message.content().length() + length(message.raw());
                for (ToolCall call : message.toolCalls()) {
                    chars += length(call.input()) + length(call.output());
                }
            }
            return chars;
        }

        private static long length(String text) {
            return text == null ? 0 : text.length();
        }

        boolean expired(Duration ttl, Instant now) {
            return SessionRows.expired(Instant.ofEpochMilli(updatedAt), ttl, now);
        }

        /**
         * With a message (or none) and the session's own state changes appended at {@code when}: the
         * message as it reads back, the window cut to what fits plus the first that does not.
         */
        Snapshot appended(Message message, Map<String, Object> sessionDelta, Instant when) {
            List<Message> longer = window;
            if (message != null) {
                longer = new ArrayList<>(window.size() + 1);
                longer.addAll(window);
                longer.add(MessageEntity.asStored(message));
                int fitting = HistoryTruncation.fittingStart(longer, budget);
                longer = List.copyOf(longer.subList(Math.max(0, fitting - 1), longer.size()));
            }
            String state = sessionDelta.isEmpty() ? stateJson : StateJson.apply(stateJson, sessionDelta);
            return new Snapshot(key, appName, userId, state, createdAt, when.toEpochMilli(), longer, appStateJson,
                    userStateJson, budget);
        }
    }

    /** A session's kept snapshot (null: none), the number of its last write and its size in characters. */
    private record Kept(Snapshot snapshot, long lastWrite, long chars) {
        Kept(Snapshot snapshot, long lastWrite) {
            this(snapshot, lastWrite, snapshot == null ? 0 : snapshot.chars());
        }
    }

    private final boolean enabled;
    private final Map<SessionRef, Kept> kept = new ConcurrentHashMap<>();
    /** Numbers writes (and drops of everything), so that a read can tell whether one came after it. */
    private final AtomicLong writes = new AtomicLong();
    private volatile long droppedAllAt;
    /** The characters kept, about (drops of all reset it while other updates may be under way). */
    private final AtomicLong keptChars = new AtomicLong();

    /** @param enabled whether this server is the database's only writer; if not, nothing is kept */
    SessionViews(boolean enabled) {
        this.enabled = enabled;
    }

    /** The kept view for {@code budget}, unless none is kept, it was read for another budget or it has expired. */
    Optional<SessionStore.View> view(SessionRef key, int budget, Duration ttl) {
        Kept found = enabled ? kept.get(key) : null;
        if (found == null || found.snapshot() == null || found.snapshot().budget() != budget
                || found.snapshot().expired(ttl, Instant.now())) {
            return Optional.empty();
        }
        return Optional.of(found.snapshot().view());
    }

    /** Taken before a read: {@link #read} keeps what it read only if nothing was written since. */
    long beforeRead() {
        return writes.get();
    }

    /** Keeps {@code snapshot}, read after {@code before}, unless a write of the session (or a drop of all) came since. */
    void read(SessionRef key, Snapshot snapshot, long before) {
        if (!enabled || snapshot == null) {
            return;
        }
        if (kept.size() >= MAX_KEPT || keptChars.get() > MAX_KEPT_CHARS) {
            dropAll();
            return;
        }
        kept.compute(key, (k, old) -> (old != null && old.lastWrite() > before) || droppedAllAt > before
                ? old : counted(old, new Kept(snapshot, old == null ? 0 : old.lastWrite())));
    }

    /**
     * After an append committed: applied to the kept snapshot. Dropped instead when it changed shared
     * state, or when the kept snapshot had expired (the append's own look-up renewed the session);
     * everything is dropped when more than {@link #MAX_KEPT_CHARS} are kept.
     */
    void appended(SessionRef key, Message message, StateDelta delta, Instant when, Duration ttl) {
        if (!enabled) {
            return;
        }
        if (!delta.app().isEmpty() || !delta.user().isEmpty() || keptChars.get() > MAX_KEPT_CHARS) {
            dropAll();
            return;
        }
        long write = writes.incrementAndGet();
        Instant now = Instant.now();
        kept.compute(key, (k, old) -> counted(old, old == null || old.snapshot() == null || old.snapshot().expired(ttl, now)
                ? new Kept(null, write) : new Kept(old.snapshot().appended(message, delta.session(), when), write)));
    }

    /** After any other write of the session (or a failed one): nothing of it is kept. */
    void dropped(SessionRef key) {
        if (enabled) {
            long write = writes.incrementAndGet();
            kept.compute(key, (k, old) -> counted(old, new Kept(null, write)));
        }
    }

    /** {@code kept} in place of {@code old}, its size counted. */
    private Kept counted(Kept old, Kept kept) {
        keptChars.addAndGet(kept.chars() - (old == null ? 0 : old.chars()));
        return kept;
    }

    private void dropAll() {
        droppedAllAt = writes.incrementAndGet(); // before clearing: a read racing the clear is refused
        kept.clear();
        keptChars.set(0);
    }
}
