package ai.lango.session;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.database.LangoStartup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Turns of one session serialized across servers sharing a PostgreSQL database: a turn holds the
 * session's row in {@code lango_session_leases}, renewed while it runs and deleted when it ends.
 * Each step is one short autocommit statement, so no connection is held while the model answers.
 * A server killed mid-turn leaves its row behind; it expires after lango.session.lease-timeout and
 * the next server takes the session. Waiting is fair: a turn that finds the session taken puts
 * itself on the row as its waiter, and the holder hands the lease to it on release — without that, the
 * holder's server, whose next turn starts within milliseconds, took the session again before a
 * waiter polling elsewhere saw it free (measured: 6.7 s p99 to the first chunk for such turns).
 * A waiting turn does not poll: the holder's release notifies every server
 * ({@code NOTIFY lango_lease_released}, in the release's own statement), and each server's one
 * listening connection wakes its turns waiting for that session. A lease that expires (its server
 * died) notifies nobody, so a waiter also asks again every {@link #FALLBACK}, and every
 * {@link #POLL} while the listener is not listening. The embedded database is one server's alone
 * (HSQLDB locks its files), so there the in-process lock is all there is and this does nothing.
 */
@ApplicationScoped
public class SessionLeases {

    private static final Logger LOG = MaskedLogs.of(SessionLeases.class);

    /** How often a waiting turn asks again while no listener would wake it. */
    static final Duration POLL = Duration.ofMillis(100);

    /** How often a waiting turn asks again when nothing woke it: a lease that expired notifies nobody. */
    static final Duration FALLBACK = Duration.ofSeconds(2);

    /** The channel releases are announced on; the payload is the session's scope. */
    static final String CHANNEL = "lango_lease_released";

    /** How long the listener blocks for notifications before it looks whether the server stops. */
    private static final int LISTEN_MILLIS = 1000;

    /** How long a lease handed to a waiter stays its own before it takes it (the release's notification wakes it). */
    static final Duration HANDOVER = Duration.ofSeconds(2);

    /** The row is this turn's to take: free (expired) or handed to it. Its parameter: now. */
    private static final String TAKEN = "(lango_session_leases.expires_at < ? OR lango_session_leases.owner = EXCLUDED.owner)";

    /** {@link #tryAcquire} in one statement; it returns the row's owner when it took the row or waits on it. */
    private static final String TAKE_OR_WAIT = "INSERT INTO lango_session_leases (session_key, owner, expires_at) VALUES (?, ?, ?)"
            + " ON CONFLICT (session_key) DO UPDATE SET"
            + " owner = CASE WHEN " + TAKEN + " THEN EXCLUDED.owner ELSE lango_session_leases.owner END,"
            + " expires_at = CASE WHEN " + TAKEN + " THEN EXCLUDED.expires_at ELSE lango_session_leases.expires_at END,"
            // Taking it leaves another waiter in its place; waiting puts this turn there.
            + " waiter = CASE WHEN " + TAKEN + " THEN (CASE WHEN lango_session_leases.waiter = EXCLUDED.owner THEN NULL"
            + " ELSE lango_session_leases.waiter END) ELSE EXCLUDED.owner END"
            + " WHERE " + TAKEN + " OR lango_session_leases.waiter IS NULL"
            + " RETURNING owner";

    /**
     * Unshareable, so that closing a connection gives it back to the pool at once: a shareable one
     * stays with the thread's unit of work until the work ends — here, the whole turn, model call
     * included — and 20 turns waiting for the model held the whole pool (ScaleOutIT's pool test).
     */
    @Resource(lookup = LangoStartup.DATA_SOURCE, shareable = false)
    DataSource dataSource;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    @Inject
    LangoSettings settings;

    /**
     * This server: leases it holds are renewed and released by it alone. Its host and port, then this run of it: a
     * server started again where one stopped is that server again ({@link #host}), whose leases and turns it takes back
     * at once rather than when they expire.
     */
    private final String run = UUID.randomUUID().toString();
    private volatile String host;
    private ScheduledThreadPoolExecutor renewals;

    /** This server's turns waiting for a session held elsewhere, by session scope: each is woken once. */
    private final ConcurrentMap<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();
    private volatile boolean listening;
    private volatile boolean stopping;
    /** Whether the listener's outage was logged (only its thread reads and writes it). */
    private boolean warned;
    private Thread listener;

    public SessionLeases() {
        // for CDI
    }

    /** Outside the container, for the embedded database: leases that cost nothing (see {@link #enabled}). */
    public SessionLeases(LangoSettings settings) {
        this.settings = settings;
    }

    /** A held lease; closing it releases the session. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    @PostConstruct
    void start() {
        renewals = new ScheduledThreadPoolExecutor(1, threadFactory);
        renewals.setRemoveOnCancelPolicy(true);
    }

    /**
     * Where this server listens, "host:port/": no two servers that run at once share it, so a server started again
     * there is the one that stopped.
     */
    public String host() {
        String known = host;
        if (known == null) {
            String name;
            try {
                name = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                name = "localhost";
            }
            known = name + ":" + settings.http().port() + "/";
            host = known;
        }
        return known;
    }

    /** This run of this server: {@link #host} and a run id. */
    public String server() {
        return host() + run;
    }

    /**
     * Gives back the leases an earlier run of this server held when it stopped (killed: they would only expire), so
     * that its turns are resumed at once.
     */
    public void releaseEarlier() {
        if (!enabled()) {
            return;
        }
        String mine = host();
        String now = server() + "/";
        int released = update("DELETE FROM lango_session_leases WHERE LEFT(owner, ?) = ? AND LEFT(owner, ?) <> ?",
                mine.length(), mine, now.length(), now);
        if (released > 0) {
            LOG.info(() -> "gave back " + released + " session leases an earlier run of this server held");
        }
    }

    @PreDestroy
    void stop() {
        stopping = true;
        renewals.shutdownNow();
        if (listener != null) {
            listener.interrupt();
        }
    }

    /** The listener, started by the first turn that has to wait (most servers of a cluster rarely do). */
    private synchronized void listen() {
        if (listener == null && !stopping) {
            listener = threadFactory.newThread(this::listenUntilStopped);
            listener.setName("lango-lease-listener");
            listener.setDaemon(true);
            listener.start();
        }
    }

    /**
     * LISTEN on a connection of its own, held while the server runs, and wake the waiters each
     * notification names; a lost connection is opened again a second later (meanwhile waiters poll).
     */
    private void listenUntilStopped() {
        while (!stopping) {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                statement.execute("LISTEN " + CHANNEL);
                PGConnection notifications = connection.unwrap(PGConnection.class);
                listening = true;
                warned = false;
                wakeAll(); // a release while nobody listened is found by asking again
                while (!stopping) {
                    PGNotification[] received = notifications.getNotifications(LISTEN_MILLIS);
                    if (received != null) {
                        for (PGNotification notification : received) {
                            wake(notification.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!stopping && !warned) { // once per outage, not at every attempt to reconnect
                    warned = true;
                    LOG.warning(() -> "not listening for released sessions (" + e.getMessage() + "); waiting turns ask every "
                            + POLL.toMillis() + " ms until the listener is back");
                }
            } finally {
                listening = false;
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void wake(String sessionScope) {
        Set<CompletableFuture<Void>> woken = waiting.remove(sessionScope);
        if (woken != null) {
            woken.forEach(w -> w.complete(null));
        }
    }

    private void wakeAll() {
        waiting.keySet().forEach(this::wake);
    }

    /** Registered before asking for the lease, so a release between the ask and the wait is not missed. */
    private CompletableFuture<Void> wakeup(String sessionScope) {
        CompletableFuture<Void> wakeup = new CompletableFuture<>();
        waiting.computeIfAbsent(sessionScope, k -> ConcurrentHashMap.newKeySet()).add(wakeup);
        return wakeup;
    }

    private void forget(String sessionScope, CompletableFuture<Void> wakeup) {
        waiting.computeIfPresent(sessionScope, (k, waiters) -> {
            waiters.remove(wakeup);
            return waiters.isEmpty() ? null : waiters;
        });
    }

    boolean enabled() {
        return settings.database().kind() == LangoSettings.DbKind.POSTGRESQL;
    }

    /**
     * The lease of the session with this scope ({@link ai.lango.turn.SessionRef#scope}), waiting up to {@code wait} for a turn on another server to end (or its
     * lease to expire); empty when the wait passed first.
     */
    public Optional<Held> acquire(String sessionScope, Duration wait) throws InterruptedException {
        if (!enabled()) {
            return Optional.of(() -> { });
        }
        String owner = server() + "/" + UUID.randomUUID();
        Duration lease = settings.sessions().leaseTimeout();
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            CompletableFuture<Void> wakeup = wakeup(sessionScope);
            try {
                if (tryAcquire(sessionScope, owner, lease)) {
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    giveUp(sessionScope, owner);
                    return Optional.empty();
                }
                listen();
                Duration next = listening ? FALLBACK : POLL;
                wakeup.get(Math.min(left, next.toNanos()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // ask again
            } finally {
                forget(sessionScope, wakeup);
            }
        }
        long every = Math.max(200, lease.toMillis() / 3);
        ScheduledFuture<?> renewal = renewals.scheduleWithFixedDelay(() -> renew(sessionScope, owner, lease), every, every,
                TimeUnit.MILLISECONDS);
        return Optional.of(() -> {
            renewal.cancel(false);
            release(sessionScope, owner);
        });
    }

    /**
     * Takes the row when it is free, expired or handed to {@code owner}; otherwise puts {@code owner}
     * on it as its waiter if it has none. One statement, so two servers cannot both take it, and a
     * poll that changes nothing writes nothing.
     */
    boolean tryAcquire(String sessionScope, String owner, Duration lease) {
        long now = System.currentTimeMillis();
        return owner.equals(query(TAKE_OR_WAIT, sessionScope, owner, now + lease.toMillis(), now, now, now, now));
    }

    private void renew(String sessionScope, String owner, Duration lease) {
        try {
            renewOrWarn(sessionScope, owner, lease);
        } catch (RuntimeException e) {
            LOG.warning(() -> "the lease of session " + sessionScope + " was not renewed: " + e.getMessage());
        }
    }

    private void renewOrWarn(String sessionScope, String owner, Duration lease) {
        if (update("UPDATE lango_session_leases SET expires_at = ? WHERE session_key = ? AND owner = ?",
                System.currentTimeMillis() + lease.toMillis(), sessionScope, owner) == 0) {
            LOG.warning(() -> "lost the lease of session " + sessionScope + " (this server was unreachable for longer"
                    + " than lango.session.lease-timeout)");
        }
    }

    /**
     * Hands the lease to its waiter, or deletes it when none waits: one statement. A release that
     * fails only delays the next turn until the lease expires; it never fails this one.
     */
    private void release(String sessionScope, String owner) {
        try {
            // A lease handed to a waiter is announced in the same statement (delivered at its commit).
            query("WITH handed AS (UPDATE lango_session_leases SET owner = waiter, waiter = NULL, expires_at = ?"
                    + " WHERE session_key = ? AND owner = ? AND waiter IS NOT NULL RETURNING session_key),"
                    + " deleted AS (DELETE FROM lango_session_leases WHERE session_key = ? AND owner = ?"
                    + " AND NOT EXISTS (SELECT 1 FROM handed) RETURNING session_key)"
                    + " SELECT pg_notify('" + CHANNEL + "', session_key) FROM handed",
                    System.currentTimeMillis() + HANDOVER.toMillis(), sessionScope, owner, sessionScope, owner);
        } catch (RuntimeException e) {
            LOG.warning(() -> "the lease of session " + sessionScope + " was not released and will expire: " + e.getMessage());
        }
    }

    /** A waiter that stops waiting: off the row, and the lease back if it was just handed to it. */
    private void giveUp(String sessionScope, String owner) {
        try {
            release(sessionScope, owner);
            update("UPDATE lango_session_leases SET waiter = NULL WHERE session_key = ? AND waiter = ?", sessionScope, owner);
        } catch (RuntimeException e) {
            LOG.fine(() -> "session " + sessionScope + ": " + e.getMessage());
        }
    }

    private int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("session lease: " + e.getMessage(), e);
        }
    }

    /** The first column of the first row the statement returns, or null. */
    private String query(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("session lease: " + e.getMessage(), e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
