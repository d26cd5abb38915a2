package ai.lango.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.EmbeddedEngine.PooledDataSource;
import ai.lango.session.EmbeddedEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V9 on a database written before knowledge and learnings had owners: every row becomes shared (no
 * user sees more than before), vectors keep their session, memory triples take their session's scope.
 */
class OwnersMigrationTest {

    @TempDir
    Path dir;

    @Test
    void rowsFromBeforeOwnersBecomeSharedAndMemoryKeepsItsSession() throws Exception {
        Files.createDirectories(dir);
        PooledDataSource pool = EmbeddedEngine.HSQLDB.open(dir);
        try {
            Flyway.configure(SchemaMigrations.class.getClassLoader()).dataSource(pool.dataSource())
                    .locations("classpath:db/migration").target("8")
                    .placeholders(Map.of("text", SchemaMigrations.largeTextType("HSQL Database Engine"),
                            "bytes", SchemaMigrations.binaryType("HSQL Database Engine")))
                    .load().migrate();
            String session = "0123456789abcdef0123456789abcdef";
            try (Connection c = pool.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("INSERT INTO lango_knowledge VALUES (1, 'deploy', 'fact', 'from main', '', NULL, 0, 1, 1)");
                s.execute("INSERT INTO lango_learnings VALUES (1, 'tool:exec', 'boom', '', 'retry', 'general', 'SAVED', 0, 0, 0, 0.6, 1, 1)");
                s.execute("INSERT INTO lango_embeddings VALUES (1, 'knowledge', 'deploy', NULL, 'm', 'from main', X'00', 1)");
                s.execute("INSERT INTO lango_embeddings VALUES (2, 'observation', '7', '" + session + "', 'm', 'seen', X'00', 1)");
                s.execute("INSERT INTO lango_triples VALUES (1, 'knowledge:deploy', 'contains', 'collection:knowledge', '{}',"
                        + " 'knowledge:deploy', 1)");
                s.execute("INSERT INTO lango_triples VALUES (2, 'observation:7', 'in_session', 'session:" + session + "', '{}',"
                        + " 'session:" + session + "', 1)");
            }
            assertTrue(Integer.parseInt(SchemaMigrations.migrate(pool.dataSource()).schemaVersion()) >= 9);
            assertEquals("", one(pool, "SELECT owner FROM lango_knowledge WHERE entry_key = 'deploy'"));
            assertEquals("", one(pool, "SELECT owner FROM lango_learnings WHERE trigger_text = 'tool:exec'"));
            assertEquals("", one(pool, "SELECT scope FROM lango_embeddings WHERE id = 1"));
            assertEquals(session, one(pool, "SELECT scope FROM lango_embeddings WHERE id = 2"));
            assertEquals("", one(pool, "SELECT scope FROM lango_triples WHERE id = 1"));
            assertEquals(session, one(pool, "SELECT scope FROM lango_triples WHERE id = 2"));
            try (Connection c = pool.dataSource().getConnection(); Statement s = c.createStatement()) {
                // A user's entry under a shared entry's key is another row.
                s.execute("INSERT INTO lango_knowledge VALUES (2, 'deploy', 'fact', 'from release', '', NULL, 0, 1, 1, 'ann')");
            }
        } finally {
            pool.close();
        }
    }

    private static String one(PooledDataSource pool, String sql) throws Exception {
        try (Connection c = pool.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}
