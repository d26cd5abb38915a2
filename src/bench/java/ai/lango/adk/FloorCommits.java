package ai.lango.adk;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The floor under any durable store on a database: one row of 500 characters inserted and
 * committed over plain JDBC, nothing else. On the embedded default that is one fsync per commit.
 */
final class FloorCommits {

    private static final String ROW = "x".repeat(500);

    private final Connection connection;
    private final PreparedStatement insert;
    private long next;

    FloorCommits(DataSource dataSource) throws SQLException {
        connection = dataSource.getConnection();
        try (Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE bench_floor (id BIGINT PRIMARY KEY, content VARCHAR(1000))");
        }
        connection.setAutoCommit(false);
        insert = connection.prepareStatement("INSERT INTO bench_floor VALUES (?, ?)");
    }

    /** {@code count} commits of one row each. */
    void commits(int count) throws SQLException {
        for (int i = 0; i < count; i++) {
            insert.setLong(1, next++);
            insert.setString(2, ROW);
            insert.executeUpdate();
            connection.commit();
        }
    }

    /** {@code count} single commits, each timed, in nanoseconds. */
    long[] timedCommits(int count) throws SQLException {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            commits(1);
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }
}
