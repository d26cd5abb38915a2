package ai.lango.session;

import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.database.SchemaMigrations;
import ai.lango.turn.SessionRef;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The store outside the server, for benchmarks and crash tests: an embedded file database with the
 * Flyway schema, EclipseLink with resource-local transactions standing in for the container's, one
 * per unit of work exactly as {@code @Transactional} gives them. Single-threaded.
 */
public final class LocalTransactions implements AutoCloseable {

    private final EmbeddedEngine.PooledDataSource pool;
    private final EntityManagerFactory factory;
    private final EntityManager em;
    private final SessionRows rows;
    private final Path dir;

    /** A new, empty database of the embedded default in {@code dir}. */
    public LocalTransactions(Path dir) throws IOException {
        this(dir, EmbeddedEngine.HSQLDB, true);
    }

    /** The database of {@code engine} in {@code dir}: a new, empty one when {@code fresh}, else what is there. */
    public LocalTransactions(Path dir, EmbeddedEngine engine, boolean fresh) throws IOException {
        this.dir = dir;
        if (fresh) {
            deleteRecursively(dir);
        }
        Files.createDirectories(dir);
        pool = engine.open(dir);
        SchemaMigrations.migrate(pool.dataSource());
        factory = Persistence.createEntityManagerFactory("lango", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", pool.dataSource(),
                // As Liberty's data source does (statementCacheSize): HSQLDB compiles every statement it is handed anew.
                "eclipselink.jdbc.cache-statements", "true",
                "eclipselink.jdbc.cache-statements.size", "40",
                "eclipselink.logging.level", "WARNING"));
        em = factory.createEntityManager();
        rows = new TransactionalRows(this);
        rows.em = em;
        rows.hsqldb = engine == EmbeddedEngine.HSQLDB;
    }

    public javax.sql.DataSource dataSource() {
        return pool.dataSource();
    }

    public EntityManager entityManager() {
        return em;
    }

    public SessionRows rows() {
        return rows;
    }

    /** A store over these rows; {@code null} settings: sessions never expire. */
    public SessionStore store(ai.lango.config.LangoSettings settings) {
        SessionStore store = new SessionStore();
        store.rows = rows;
        store.settings = settings != null ? settings : settings(dir);
        store.sessionDeleted = noEvents();
        return store;
    }

    /**
     * A store as the server runs it on its own embedded database: the only writer, so it keeps the
     * sessions' views between turns. Only one such store may write the database.
     */
    public SessionStore serverStore(ai.lango.config.LangoSettings settings) {
        SessionStore store = store(settings);
        store.start();
        return store;
    }

    /** Events that nobody observes (outside the container). */
    @SuppressWarnings("unchecked")
    private static <T> jakarta.enterprise.event.Event<T> noEvents() {
        return (jakarta.enterprise.event.Event<T>) java.lang.reflect.Proxy.newProxyInstance(LocalTransactions.class.getClassLoader(),
                new Class<?>[] {jakarta.enterprise.event.Event.class}, (proxy, method, args) -> null);
    }

    /** Settings for a store in {@code dir}; only the TTL (none) and the model name (the token budget) matter. */
    public static LangoSettings settings(Path dir) {
        return settings(dir, Duration.ZERO, 0);
    }

    /** The same with this session TTL and history budget (0: the model's). */
    public static LangoSettings settings(Path dir, Duration ttl, int budget) {
        return TestSettings.of(dir, "lango.model", "bench-model", "lango.session.ttl", ttl.toString(),
                "lango.agent.token-budget", String.valueOf(budget));
    }

    <T> T inTransaction(Supplier<T> work) {
        EntityTransaction tx = em.getTransaction();
        if (tx.isActive()) {
            return work.get();
        }
        tx.begin();
        try {
            T result = work.get();
            tx.commit();
            return result;
        } catch (RuntimeException e) {
            if (tx.isActive()) {
                tx.rollback();
            }
            throw e;
        } finally {
            em.clear();
        }
    }

    /** Closes the store and shuts its database down cleanly. */
    @Override
    public void close() {
        em.close();
        factory.close();
        try {
            pool.close();
        } catch (Exception e) {
            throw new IllegalStateException("the database did not shut down cleanly", e);
        }
    }

    /** Each unit of work in its own local transaction, as the container would run it. */
    private static final class TransactionalRows extends SessionRows {
        private final LocalTransactions tx;

        TransactionalRows(LocalTransactions tx) {
            this.tx = tx;
        }

        @Override
        StoredSession findRenewing(SessionRef key, Duration ttl) {
            return tx.inTransaction(() -> super.findRenewing(key, ttl));
        }

        @Override
        SessionViews.Snapshot view(SessionRef key, Duration ttl, int budget) {
            return tx.inTransaction(() -> super.view(key, ttl, budget));
        }

        @Override
        StoredSession insert(SessionRef key, Map<String, Object> state) {
            return tx.inTransaction(() -> super.insert(key, state));
        }

        @Override
        void ensureShared(String scope) {
            tx.inTransaction(() -> {
                super.ensureShared(scope);
                return null;
            });
        }

        @Override
        boolean append(MessageAppend append, StateDelta delta) {
            return tx.inTransaction(() -> super.append(append, delta));
        }

        @Override
        java.util.List<Boolean> appendAll(java.util.List<MessageAppend> appends) {
            return tx.inTransaction(() -> super.appendAll(appends));
        }

        @Override
        boolean delete(SessionRef key) {
            return tx.inTransaction(() -> super.delete(key));
        }

        @Override
        Map<String, Object> sharedState(String scope) {
            return tx.inTransaction(() -> super.sharedState(scope));
        }

        @Override
        java.util.List<Message> newestWindow(SessionRef key, int budget) {
            return tx.inTransaction(() -> super.newestWindow(key, budget));
        }

        @Override
        java.util.List<Message> messages(SessionRef key, int limit, long afterMillis) {
            return tx.inTransaction(() -> super.messages(key, limit, afterMillis));
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
