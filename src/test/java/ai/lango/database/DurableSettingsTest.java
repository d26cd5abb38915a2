package ai.lango.database;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded database is set to make every commit durable, whatever its URL or an earlier start said. */
class DurableSettingsTest {

    @TempDir
    Path dir;

    private static String setting(Connection connection, String sql) throws Exception {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }

    private Connection open() throws Exception {
        // A database created with the opposite settings, as a hand-edited URL might give.
        return DriverManager.getConnection("jdbc:hsqldb:file:" + dir.resolve("lango")
                + ";hsqldb.write_delay=true;hsqldb.tx=locks;hsqldb.default_table_type=memory", "SA", "");
    }

    @Test
    void hsqldbFsyncsEveryCommit() throws Exception {
        try (Connection connection = open()) {
            DurableSettings.apply(connection);
            assertEquals("0", setting(connection,
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.write_delay_millis'"));
            assertEquals("false", setting(connection,
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.write_delay'"));
        }
    }

    @Test
    void hsqldbKeepsNewTablesOnDisk() throws Exception {
        try (Connection connection = open()) {
            DurableSettings.apply(connection);
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE t (id INT)");
            }
            assertEquals("CACHED", setting(connection,
                    "SELECT HSQLDB_TYPE FROM INFORMATION_SCHEMA.SYSTEM_TABLES WHERE TABLE_NAME = 'T'"));
        }
    }

    @Test
    void hsqldbRunsMvccSoReadersDoNotWaitForWriters() throws Exception {
        try (Connection connection = open()) {
            DurableSettings.apply(connection);
            assertEquals("MVCC", setting(connection,
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.tx'"));
        }
    }
}
