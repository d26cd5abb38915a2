package ai.lango.load;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the scale-out comparison reads from PostgreSQL itself: the database's own activity counters
 * (to tell the database work a turn costs) and the stored messages of a round's sessions (to check
 * that every session holds question/answer pairs in order, whichever servers wrote them).
 */
final class PostgresProbe {

    /**
     * A backend reports its counters at the end of a transaction at most once a second, and an idle
     * one after 10 s: waiting this long after a round lets every pooled connection report.
     */
    static final long STATS_SETTLE_MS = 11_000;

    /** pg_stat_database's counters for one database at one moment. */
    record Activity(long transactions, long rowsRead, long rowsWritten, long blocksTouched) {
        Activity minus(Activity before) {
            return new Activity(transactions - before.transactions, rowsRead - before.rowsRead,
                    rowsWritten - before.rowsWritten, blocksTouched - before.blocksTouched);
        }
    }

    /** How a round's sessions were stored: user messages, and sessions not made of question/answer pairs. */
    record Stored(int sessions, int questions, List<String> notInPairs) {
    }

    private final String url;
    private final String user;
    private final String password;

    PostgresProbe(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** A connection of its own each time: a transaction would keep reading one snapshot of the counters. */
    Activity activity() throws Exception {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT xact_commit + xact_rollback, tup_returned + tup_fetched,"
                     + " tup_inserted + tup_updated + tup_deleted, blks_hit + blks_read"
                     + " FROM pg_stat_database WHERE datname = current_database()")) {
            r.next();
            return new Activity(r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4));
        }
    }

    /**
     * The roles of every stored message of the sessions whose key starts with {@code prefix}, in the
     * order they were written; a session is in pairs when they read user, assistant, user, assistant….
     */
    Stored stored(String prefix) throws Exception {
        Map<String, List<String>> roles = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(url, user, password);
             PreparedStatement s = c.prepareStatement("SELECT s.session_key, m.role FROM lango_messages m"
                     + " JOIN lango_sessions s ON s.id = m.session_id WHERE s.session_key LIKE ? ORDER BY s.id, m.id")) {
            s.setString(1, prefix + "%");
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    roles.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.getString(2));
                }
            }
        }
        int questions = 0;
        List<String> notInPairs = new ArrayList<>();
        for (Map.Entry<String, List<String>> session : roles.entrySet()) {
            List<String> list = session.getValue();
            boolean pairs = list.size() % 2 == 0;
            for (int i = 0; pairs && i < list.size(); i++) {
                pairs = list.get(i).equals(i % 2 == 0 ? "user" : "assistant");
            }
            if (!pairs) {
                notInPairs.add(session.getKey() + " " + list);
            }
            questions += (int) list.stream().filter("user"::equals).count();
        }
        return new Stored(roles.size(), questions, notInPairs);
    }
}
