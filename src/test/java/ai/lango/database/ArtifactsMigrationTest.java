package ai.lango.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.EmbeddedEngine;
import ai.lango.session.EmbeddedEngine.PooledDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V12 on a database migrated before it: the new table holds an artifact of the full 10 MiB (on
 * HSQLDB only because it is a BLOB: a VARBINARY row that large overflows the row cache), one row per
 * session, name and version.
 */
class ArtifactsMigrationTest {

    private static final String HSQLDB = "HSQL Database Engine";

    @TempDir
    Path dir;

    @Test
    void anExistingDatabaseGetsTheArtifactsTableAndItHoldsTenMebibytes() throws Exception {
        PooledDataSource pool = EmbeddedEngine.HSQLDB.open(dir);
        try {
            Flyway.configure(SchemaMigrations.class.getClassLoader()).dataSource(pool.dataSource())
                    .locations("classpath:db/migration").target("11")
                    .placeholders(Map.of("text", SchemaMigrations.largeTextType(HSQLDB), "bytes", SchemaMigrations.binaryType(HSQLDB)))
                    .load().migrate();
            assertTrue(Integer.parseInt(SchemaMigrations.migrate(pool.dataSource()).schemaVersion()) >= 12);
            byte[] tenMiB = new byte[10 * 1024 * 1024];
            tenMiB[tenMiB.length - 1] = 42;
            try (Connection c = pool.dataSource().getConnection()) {
                insert(c, "1", 0, tenMiB);
                insert(c, "2", 1, new byte[] {1});
                SQLException duplicate = assertThrows(SQLException.class, () -> insert(c, "3", 1, new byte[] {2}));
                assertEquals("23505", duplicate.getSQLState());
                try (PreparedStatement read = c.prepareStatement("SELECT data, size FROM lango_artifacts WHERE version = 0");
                     ResultSet r = read.executeQuery()) {
                    r.next();
                    byte[] back = r.getBytes(1);
                    assertEquals(tenMiB.length, back.length);
                    assertEquals(42, back[back.length - 1]);
                    assertEquals(tenMiB.length, r.getLong(2));
                }
            }
        } finally {
            pool.close();
        }
    }

    private static void insert(Connection c, String id, int version, byte[] data) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO lango_artifacts (id, user_id, session_key, session_scope, name,"
                + " version, mime_type, data, size, created_at) VALUES (?, 'ann', 's1', '0123456789abcdef0123456789abcdef',"
                + " 'shot.png', ?, 'image/png', ?, ?, 1)")) {
            s.setString(1, id);
            s.setInt(2, version);
            s.setBytes(3, data);
            s.setLong(4, data.length);
            s.executeUpdate();
        }
    }
}
