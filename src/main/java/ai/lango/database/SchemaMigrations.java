package ai.lango.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The schema is owned by the versioned migrations in db/migration, applied by Flyway at start;
 * EclipseLink never generates DDL. One SQL script serves every database: {@code ${text}} (long
 * text), {@code ${bytes}} (a byte string) and {@code ${blob}} (a large one) are the only types that differ.
 */
public final class SchemaMigrations {

    /**
     * Liberty (like WebSphere) finds a classpath folder only through a file in it: hence the empty
     * flyway.location in db/migration, and in db/callback, which Flyway always scans.
     */
    private static final String LOCATION = "classpath:db/migration";

    private SchemaMigrations() {
    }

    /** The database a migration ran on. */
    public record Database(String product, String url, String schemaVersion) {
    }

    /** Applies the {@link DurableSettings}, brings the schema up to date and says which database it ran on. */
    public static Database migrate(DataSource dataSource) {
        String product;
        String url;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
            url = connection.getMetaData().getURL();
            DurableSettings.apply(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to the database: " + e.getMessage(), e);
        }
        MigrateResult result = Flyway.configure(SchemaMigrations.class.getClassLoader())
                .dataSource(dataSource)
                .locations(LOCATION)
                .placeholders(Map.of("text", largeTextType(product), "bytes", binaryType(product), "blob", largeBinaryType(product)))
                .load()
                .migrate();
        return new Database(product, url,
                result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion);
    }

    static String largeTextType(String product) {
        String name = product.toLowerCase(Locale.ROOT);
        if (name.contains("h2")) {
            // Not CLOB: H2 keeps CLOBs in a separate LOB store, which made every message write and read slower.
            return "CHARACTER VARYING";
        }
        if (name.contains("hsql")) {
            // VARCHAR is kept in the row of a CACHED table; a CLOB would go to HSQLDB's separate LOB store.
            return "VARCHAR(16777216)";
        }
        if (name.contains("postgres")) {
            return "TEXT";
        }
        throw new IllegalStateException("unsupported database \"" + product + "\"; Lango runs on HSQLDB or PostgreSQL");
    }

    /** A byte string of up to 1 MiB (a vector of 384 floats is 1.5 KiB, of 3,072 floats 12 KiB). */
    static String binaryType(String product) {
        String name = product.toLowerCase(Locale.ROOT);
        if (name.contains("postgres")) {
            return "BYTEA";
        }
        if (name.contains("hsql") || name.contains("h2")) {
            return "VARBINARY(1048576)";
        }
        throw new IllegalStateException("unsupported database \"" + product + "\"; Lango runs on HSQLDB or PostgreSQL");
    }

    /**
     * A byte string of up to 16 MiB (an artifact: 10 MiB at most), kept out of the row where the
     * database can: HSQLDB's row cache (10,000 KB) cannot hold a row that large, its LOB store can.
     * PostgreSQL moves large values out of the row by itself (TOAST).
     */
    static String largeBinaryType(String product) {
        String name = product.toLowerCase(Locale.ROOT);
        if (name.contains("postgres")) {
            return "BYTEA";
        }
        if (name.contains("hsql") || name.contains("h2")) {
            return "BLOB(16M)";
        }
        throw new IllegalStateException("unsupported database \"" + product + "\"; Lango runs on HSQLDB or PostgreSQL");
    }
}
