package ai.lango.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;
import org.hsqldb.jdbc.JDBCPool;

/**
 * The embedded databases the store was measured on, configured as a server would use them, for
 * benchmarks and crash tests outside the server. {@link #HSQLDB} is the one liberty/db/hsqldb.xml
 * configures; the H2 settings are what earlier versions used and what was tried instead.
 */
public enum EmbeddedEngine {
    /** Earlier versions' default: MVStore writes committed changes in the background every 500 ms. */
    H2("H2 2.4 file, defaults", ""),
    /** Every commit written to the file before it returns (no fsync); old chunks kept 45 s. */
    H2_WRITE_DELAY_0("H2 2.4 file, WRITE_DELAY=0", ";WRITE_DELAY=0"),
    /** As above, with chunks reused at once: smaller, but H2 then says a power failure may corrupt it. */
    H2_WRITE_DELAY_0_RETENTION_0("H2 2.4 file, WRITE_DELAY=0, RETENTION_TIME=0", ";WRITE_DELAY=0;RETENTION_TIME=0"),
    /** The embedded default: CACHED tables, MVCC, every commit logged and fsynced ({@link DurableSettings}). */
    HSQLDB("HSQLDB 2.7 file, WRITE DELAY FALSE (fsync per commit)", "");

    private final String label;
    private final String urlSettings;

    EmbeddedEngine(String label, String urlSettings) {
        this.label = label;
        this.urlSettings = urlSettings;
    }

    public String label() {
        return label;
    }

    /** A pooled data source for the database {@code lango} in {@code dir}, as Liberty's would be. */
    public PooledDataSource open(Path dir) {
        String file = dir.toAbsolutePath().resolve("lango").toString();
        if (this == HSQLDB) {
            JDBCPool pool = new JDBCPool(8);
            pool.setUrl("jdbc:hsqldb:file:" + file);
            pool.setUser("SA");
            pool.setPassword("");
            return new PooledDataSource(pool, () -> {
                try (var c = pool.getConnection(); var s = c.createStatement()) {
                    s.execute("SHUTDOWN");
                }
                pool.close(0);
            });
        }
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:file:" + file + urlSettings);
        h2.setUser("sa");
        // Pooled, as Liberty's data source is: an unpooled H2 file database reopens on every connection.
        JdbcConnectionPool pool = JdbcConnectionPool.create(h2);
        return new PooledDataSource(pool, pool::dispose);
    }

    /** A data source and how to close its database cleanly. */
    public record PooledDataSource(DataSource dataSource, Closer closer) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            closer.close();
        }
    }

    @FunctionalInterface
    public interface Closer {
        void close() throws Exception;
    }

    /** Bytes of every file in {@code dir}: what the database occupies on disk. */
    public static long sizeOnDisk(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
