package ai.lango.database;

import ai.lango.masking.MaskedLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Brings what an earlier version stored in its embedded H2 database ({@code <data dir>/db/lango.mv.db})
 * into the HSQLDB database that replaced it, once, at the first start: sessions, messages, tool
 * calls and shared state, with their ids, in one transaction. The H2 file is then renamed to
 * {@code lango.mv.db.imported} and kept. A start never goes on silently beside data it did not import.
 */
public final class H2Import {

    /** The H2 file earlier versions kept in {@code <data dir>/db}. */
    public static final String H2_FILE = "lango.mv.db";
    /** What it is renamed to once imported. */
    public static final String IMPORTED_SUFFIX = ".imported";

    private static final Logger LOG = MaskedLogs.of(H2Import.class);
    private static final int BATCH = 500;
    /** EclipseLink allocates ids in blocks of 50 and reads each sequence value as the top of its block. */
    private static final int ALLOCATION = 50;

    /** A table to copy: its columns, in the order of the V1 migration. */
    private record Table(String name, String sequence, List<String> columns) {
    }

    private static final List<Table> TABLES = List.of(
            new Table("lango_sessions", "lango_sessions_seq",
                    List.of("id", "session_key", "app_name", "user_id", "state", "created_at", "updated_at")),
            new Table("lango_messages", "lango_messages_seq",
                    List.of("id", "session_id", "role", "content", "author", "created_at", "tokens", "raw_event")),
            new Table("lango_tool_calls", "lango_tool_calls_seq",
                    List.of("id", "message_id", "seq", "call_id", "name", "input", "output")),
            new Table("lango_shared_state", null, List.of("scope_key", "state")));

    /** What an import found and did. */
    public record Result(boolean imported, long sessions, long messages) {
        static final Result NOTHING = new Result(false, 0, 0);
    }

    /** The import cannot decide on its own; the message says what to run. */
    public static final class RefusedException extends RuntimeException {
        public RefusedException(String message) {
            super(message);
        }
    }

    private H2Import() {
    }

    /**
     * Imports {@code dbDir/lango.mv.db} into {@code target} if it is there. {@code h2} gives a data
     * source for that file and is asked only then. Refuses (with what to run) when the target
     * already holds sessions, since the two could only be merged by guessing.
     */
    public static Result importIfPresent(Path dbDir, DataSource target, Supplier<DataSource> h2) {
        Path file = dbDir.resolve(H2_FILE);
        if (!Files.exists(file)) {
            return Result.NOTHING;
        }
        Path imported = dbDir.resolve(H2_FILE + IMPORTED_SUFFIX);
        try (Connection to = target.getConnection()) {
            if (count(to, "lango_sessions") > 0) {
                Path aside = dbDir.resolveSibling(dbDir.getFileName() + "-hsqldb-set-aside");
                throw new RefusedException("found the H2 database of an earlier Lango version at " + file
                        + " and sessions in the HSQLDB database beside it; Lango will not guess which to keep."
                        + " To keep the HSQLDB database, run: mv '" + file + "' '" + imported + "'."
                        + " To import the H2 database instead and set the HSQLDB one aside, stop the server and run: mv '"
                        + dbDir + "' '" + aside + "' && mkdir '" + dbDir + "' && mv '" + aside.resolve(H2_FILE) + "' '"
                        + dbDir + "/'");
            }
            Result result;
            try (Connection from = h2.get().getConnection()) {
                result = copy(from, to);
            }
            Files.move(file, imported);
            LOG.info(() -> "Imported " + result.sessions() + " sessions and " + result.messages()
                    + " messages from the H2 database of an earlier version; it is kept as " + imported);
            return result;
        } catch (SQLException e) {
            throw new RefusedException("could not import the H2 database of an earlier Lango version at " + file + ": "
                    + e.getMessage() + "; nothing was imported. Start again to retry, or run: mv '" + file + "' '"
                    + imported + "' to start without its sessions.");
        } catch (IOException e) {
            throw new RefusedException("imported the H2 database at " + file + " but could not rename it (" + e
                    + "); run: mv '" + file + "' '" + imported + "'");
        }
    }

    /** Every row of every table, in one transaction of the target; sequences moved past the copied ids. */
    private static Result copy(Connection from, Connection to) throws SQLException {
        boolean autoCommit = to.getAutoCommit();
        to.setAutoCommit(false);
        try {
            for (Table table : TABLES) {
                copy(from, to, table);
            }
            to.commit();
        } catch (SQLException | RuntimeException e) {
            to.rollback();
            throw e;
        } finally {
            to.setAutoCommit(autoCommit);
        }
        return new Result(true, count(to, "lango_sessions"), count(to, "lango_messages"));
    }

    private static void copy(Connection from, Connection to, Table table) throws SQLException {
        String columns = String.join(", ", table.columns());
        String marks = String.join(", ", table.columns().stream().map(c -> "?").toList());
        long maxId = 0;
        try (Statement read = from.createStatement();
             ResultSet rows = read.executeQuery("SELECT " + columns + " FROM " + table.name());
             PreparedStatement write = to.prepareStatement("INSERT INTO " + table.name() + " (" + columns + ") VALUES (" + marks + ")")) {
            int pending = 0;
            while (rows.next()) {
                for (int i = 1; i <= table.columns().size(); i++) {
                    write.setObject(i, rows.getObject(i));
                }
                if (table.sequence() != null) {
                    maxId = Math.max(maxId, rows.getLong(1));
                }
                write.addBatch();
                if (++pending == BATCH) {
                    write.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                write.executeBatch();
            }
        }
        if (table.sequence() != null) {
            try (Statement restart = to.createStatement()) {
                restart.execute("ALTER SEQUENCE " + table.sequence() + " RESTART WITH " + nextBlockTop(maxId));
            }
        }
    }

    /** The sequence value whose block of ids lies wholly above {@code maxId}. */
    static long nextBlockTop(long maxId) {
        return (maxId / ALLOCATION + 2) * ALLOCATION;
    }

    private static long count(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            result.next();
            return result.getLong(1);
        }
    }
}
