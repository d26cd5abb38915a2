package ai.lango.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * The database settings the store's guarantee rests on ("an acknowledged event survives a crash"),
 * applied at every start rather than trusted to a URL: on the embedded HSQLDB, every commit is
 * written to the log and fsynced before it returns (WRITE DELAY FALSE), tables live on disk
 * (CACHED, not in memory), and readers never wait for writers (MVCC). PostgreSQL needs nothing:
 * it fsyncs its WAL at commit unless an operator turned that off.
 */
public final class DurableSettings {

    /** HSQLDB statements, in order; each is idempotent and persisted in the database's .script. */
    static final List<String> HSQLDB = List.of(
            "SET FILES WRITE DELAY FALSE",
            "SET DATABASE DEFAULT TABLE TYPE CACHED",
            "SET DATABASE TRANSACTION CONTROL MVCC");

    private DurableSettings() {
    }

    /** Applies the settings for the database behind {@code connection}. */
    public static void apply(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (!product.contains("hsql")) {
            return;
        }
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            for (String sql : HSQLDB) {
                statement.execute(sql);
            }
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
