package ai.lango.session;

import ai.lango.config.LangoSettings;
import ai.lango.persistence.LangoStartup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Turns of one session serialized across servers sharing a PostgreSQL database: a turn holds the
 * session's row in {@code lango_session_leases}, renewed while it runs and deleted when it ends.
 * Each step is one short autocommit statement, so no connection is held while the model answers.
 * A server killed mid-turn leaves its row behind; it expires after lango.session.lease-timeout and
 * the next server takes the session. The embedded database is one server's alone (HSQLDB locks its
 * files), so there the in-process lock is all there is and this does nothing.
 */
@ApplicationScoped
public class SessionLeases {

    private static final Logger LOG = Logger.getLogger(SessionLeases.class.getName());

    /** How often a waiting turn asks again, at most. */
    static final Duration POLL = Duration.ofMillis(100);

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

    /** This server: leases it holds are renewed and released by it alone. */
    private final String server = UUID.randomUUID().toString();
    private ScheduledThreadPoolExecutor renewals;

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

    @PreDestroy
    void stop() {
        renewals.shutdownNow();
    }

    boolean enabled() {
        return settings.database().kind() == LangoSettings.DbKind.POSTGRESQL;
    }

    /**
     * The session's lease, waiting up to {@code wait} for a turn on another server to end (or its
     * lease to expire); empty when the wait passed first.
     */
    public Optional<Held> acquire(String sessionKey, Duration wait) throws InterruptedException {
        if (!enabled()) {
            return Optional.of(() -> { });
        }
        String owner = server + "/" + UUID.randomUUID();
        Duration lease = settings.sessions().leaseTimeout();
        long deadline = System.nanoTime() + wait.toNanos();
        while (!tryAcquire(sessionKey, owner, lease)) {
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            Thread.sleep(POLL.toMillis());
        }
        long every = Math.max(200, lease.toMillis() / 3);
        ScheduledFuture<?> renewal = renewals.scheduleWithFixedDelay(() -> renew(sessionKey, owner, lease), every, every,
                TimeUnit.MILLISECONDS);
        return Optional.of(() -> {
            renewal.cancel(false);
            release(sessionKey, owner);
        });
    }

    /** Takes the row when it is free or expired; one statement, so two servers cannot both take it. */
    boolean tryAcquire(String sessionKey, String owner, Duration lease) {
        long now = System.currentTimeMillis();
        return update("INSERT INTO lango_session_leases (session_key, owner, expires_at) VALUES (?, ?, ?)"
                + " ON CONFLICT (session_key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
                + " WHERE lango_session_leases.expires_at < ?", sessionKey, owner, now + lease.toMillis(), now) == 1;
    }

    private void renew(String sessionKey, String owner, Duration lease) {
        try {
            renewOrWarn(sessionKey, owner, lease);
        } catch (RuntimeException e) {
            LOG.warning(() -> "the lease of session " + sessionKey + " was not renewed: " + e.getMessage());
        }
    }

    private void renewOrWarn(String sessionKey, String owner, Duration lease) {
        if (update("UPDATE lango_session_leases SET expires_at = ? WHERE session_key = ? AND owner = ?",
                System.currentTimeMillis() + lease.toMillis(), sessionKey, owner) == 0) {
            LOG.warning(() -> "lost the lease of session " + sessionKey + " (this server was unreachable for longer"
                    + " than lango.session.lease-timeout)");
        }
    }

    /** A release that fails only delays the next turn until the lease expires; it never fails this one. */
    private void release(String sessionKey, String owner) {
        try {
            update("DELETE FROM lango_session_leases WHERE session_key = ? AND owner = ?", sessionKey, owner);
        } catch (RuntimeException e) {
            LOG.warning(() -> "the lease of session " + sessionKey + " was not released and will expire: " + e.getMessage());
        }
    }

    private int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("session lease: " + e.getMessage(), e);
        }
    }
}
