package ai.lango.session;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of durable turns ({@code lango_turns}): a new turn's row written with its user's message (in that
 * message's transaction, {@link #write}), its end, a crashed turn's row taken over by the server that resumes it,
 * and the turns a crash left running. Over the transaction's own JDBC connection, as the message appends are.
 */
@ApplicationScoped
@Transactional
public class TurnRows {

    private static final String COLUMNS = "id, user_id, session_key, session_scope, state, server, edge, reference, is_admin,"
            + " credential, streaming, attempts, started_at, run_started_at, updated_at, error";
    private static final String INSERT = "INSERT INTO lango_turns (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?)";
    private static final String RUNNING = "UPDATE lango_turns SET state = 'running', server = ?, run_started_at = ?, updated_at = ?,"
            + " error = NULL WHERE id = ?";
    /**
     * A new message in a session ends the turn that waited there for a person (its requests are superseded), and a
     * turn a crash cut off there that was not resumed yet: its user moved on. (The cast: HSQLDB types a CASE of two
     * literals as CHAR of the longer, and stored 'done' padded to 'done  ', which no state reads as.)
     */
    private static final String SUPERSEDED = "UPDATE lango_turns SET state = CASE WHEN state = 'waiting'"
            + " THEN CAST('done' AS VARCHAR(16)) ELSE 'failed' END, server = NULL, error = CASE WHEN state = 'waiting' THEN NULL ELSE"
            + " 'a new message in its session came before it was resumed' END, updated_at = ? WHERE session_scope = ?"
            + " AND state IN ('waiting', 'running') AND id <> ?";

    /** This server, as the runner of its turns (and the holder of their sessions' leases). */
    @Inject
    SessionLeases leases;

    /** The longest error kept (the column's length). */
    private static final int ERROR_CHARS = 2000;

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** This server's name on the turns it runs. */
    public String server() {
        return leases.server();
    }

    /** Applies a run's turn write over {@code connection}, inside the transaction of the message it comes with. */
    static void write(Connection connection, TurnRecord.Begin begin) throws SQLException {
        write(connection, List.of(begin));
    }

    /**
     * Applies the turn writes of a group commit's runs over {@code connection}, inside its transaction: each statement
     * once for all of them, in one batch, since the group commit writes one batch at a time and every statement in it
     * holds up every turn waiting for the next. A turn that goes on is updated; the others are new: their sessions'
     * waiting turns are superseded, then they are inserted.
     */
    static void write(Connection connection, List<TurnRecord.Begin> begins) throws SQLException {
        if (begins.isEmpty()) {
            return;
        }
        int[] updated;
        try (PreparedStatement update = connection.prepareStatement(RUNNING)) {
            for (TurnRecord.Begin begin : begins) {
                TurnRecord turn = begin.turn();
                setNullable(update, 1, turn.server());
                update.setLong(2, turn.runStartedAt().toEpochMilli());
                update.setLong(3, turn.updatedAt().toEpochMilli());
                update.setString(4, turn.id());
                update.addBatch();
            }
            updated = update.executeBatch();
        }
        List<TurnRecord> fresh = new ArrayList<>();
        for (int i = 0; i < begins.size(); i++) {
            if (updated[i] == 0) { // a turn that goes on (a retry of its run, an answer after a request for approval) has its row
                fresh.add(begins.get(i).turn());
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        try (PreparedStatement superseded = connection.prepareStatement(SUPERSEDED)) {
            for (TurnRecord turn : fresh) {
                superseded.setLong(1, turn.updatedAt().toEpochMilli());
                superseded.setString(2, turn.sessionScope());
                superseded.setString(3, turn.id());
                superseded.addBatch();
            }
            superseded.executeBatch();
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (TurnRecord turn : fresh) {
                bind(insert, turn);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void bind(PreparedStatement insert, TurnRecord turn) throws SQLException {
        insert.setString(1, turn.id());
        insert.setString(2, turn.userId());
        insert.setString(3, turn.sessionKey());
        insert.setString(4, turn.sessionScope());
        insert.setString(5, turn.state().column());
        setNullable(insert, 6, turn.server());
        insert.setString(7, turn.edge());
        setNullable(insert, 8, turn.reference());
        insert.setBoolean(9, turn.admin());
        insert.setString(10, turn.credential());
        insert.setBoolean(11, turn.streaming());
        insert.setInt(12, turn.attempts());
        insert.setLong(13, turn.startedAt().toEpochMilli());
        insert.setLong(14, turn.runStartedAt().toEpochMilli());
        insert.setLong(15, turn.updatedAt().toEpochMilli());
        setNullable(insert, 16, turn.error());
    }

    private static void setNullable(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }

    /**
     * The turn ended its run: done, failed (with why), or waiting for a person's answer (no server runs it then).
     * Only a turn this server runs is ended here: a turn another server took over is that server's.
     */
    public void ended(String id, TurnRecord.State state, String error) {
        try {
            end(em.unwrap(Connection.class), List.of(ending(id, state, error)));
        } catch (SQLException e) {
            throw new PersistenceException("ending a turn failed: " + e.getMessage(), e);
        }
    }

    /** How turn {@code id}'s run ended, as of now, on this server: for {@link #end}, in a group commit. */
    public TurnRecord.End ending(String id, TurnRecord.State state, String error) {
        return new TurnRecord.End(id, state, error == null ? null
                : error.length() > ERROR_CHARS ? error.substring(0, ERROR_CHARS) : error, server(), Instant.now());
    }

    private static final String ENDED = "UPDATE lango_turns SET state = ?, server = NULL, updated_at = ?, error = ? WHERE id = ?"
            + " AND (server = ? OR server IS NULL)";

    /** Applies turns' ends over {@code connection}, in one batch, inside the transaction it is in. */
    static void end(Connection connection, List<TurnRecord.End> ends) throws SQLException {
        if (ends.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement(ENDED)) {
            for (TurnRecord.End end : ends) {
                update.setString(1, end.state().column());
                update.setLong(2, end.at().toEpochMilli());
                setNullable(update, 3, end.error());
                update.setString(4, end.id());
                setNullable(update, 5, end.server());
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    /**
     * Takes over {@code orphan}, a turn a crash left running: it is this server's now, resumed once more. False when
     * another server (or another look of this one) took it first.
     */
    public boolean claim(TurnRecord orphan) {
        return update("UPDATE lango_turns SET server = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?"
                + " AND state = 'running' AND updated_at = ? AND " + (orphan.server() == null ? "server IS NULL" : "server = ?"),
                orphan.server() == null
                        ? new Object[] {server(), Instant.now().toEpochMilli(), orphan.id(), orphan.updatedAt().toEpochMilli()}
                        : new Object[] {server(), Instant.now().toEpochMilli(), orphan.id(), orphan.updatedAt().toEpochMilli(),
                                orphan.server()}) == 1;
    }

    /**
     * The turns left running by servers that are gone. On the embedded database, one server's alone, every turn an
     * earlier run left running. On PostgreSQL — a cluster — each turn an earlier run of this server left running (it
     * is this server again: at once), and each running turn of another server whose session's lease ran out or is held
     * by nobody (its server stopped renewing it), that nobody took over within {@code grace} (a server that claims one
     * takes its lease within that time) and for whose session no new message waits (it supersedes the cut turn).
     */
    public List<TurnRecord> orphans(boolean leases, Instant now, java.time.Duration grace) {
        String sql = "SELECT " + COLUMNS.replaceAll("(\\w+)", "t.$1") + " FROM lango_turns t"
                + (leases ? " LEFT JOIN lango_session_leases l ON l.session_key = t.session_scope" : "")
                + " WHERE t.state = 'running' AND (t.server IS NULL OR t.server <> ?)"
                + (leases ? " AND ((t.server IS NOT NULL AND LEFT(t.server, ?) = ?) OR ((l.session_key IS NULL"
                + " OR (l.expires_at < ? AND l.waiter IS NULL)) AND t.updated_at < ?))" : "")
                + " ORDER BY t.started_at";
        try (PreparedStatement select = em.unwrap(Connection.class).prepareStatement(sql)) {
            select.setString(1, server());
            if (leases) {
                String host = this.leases.host();
                select.setInt(2, host.length());
                select.setString(3, host);
                select.setLong(4, now.toEpochMilli());
                select.setLong(5, now.minus(grace).toEpochMilli());
            }
            return read(select);
        } catch (SQLException e) {
            throw new PersistenceException("reading the turns left running failed: " + e.getMessage(), e);
        }
    }

    /**
     * A resumed turn's run, holding its session now, begins: still this server's and running (a new message in its
     * session did not supersede it meanwhile); its run starts now. False when it is no longer to be resumed.
     */
    public boolean resuming(TurnRecord.Begin begin) {
        TurnRecord turn = begin.turn();
        return update("UPDATE lango_turns SET run_started_at = ?, updated_at = ? WHERE id = ? AND state = 'running' AND server = ?",
                turn.runStartedAt().toEpochMilli(), turn.updatedAt().toEpochMilli(), turn.id(), server()) == 1;
    }

    /** The turn of a session that waits for a person's answer, if any. */
    public Optional<TurnRecord> waitingIn(String sessionScope) {
        try (PreparedStatement select = em.unwrap(Connection.class).prepareStatement("SELECT " + COLUMNS
                + " FROM lango_turns WHERE session_scope = ? AND state = 'waiting' ORDER BY started_at DESC")) {
            select.setString(1, sessionScope);
            select.setMaxRows(1);
            return read(select).stream().findFirst();
        } catch (SQLException e) {
            throw new PersistenceException("reading a waiting turn failed: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a turn of the session is under way on any server: running (or cut off by a crash, not yet resumed) or
     * waiting for a person's answer.
     */
    public boolean activeIn(String sessionScope) {
        try (PreparedStatement select = em.unwrap(Connection.class).prepareStatement("SELECT id FROM lango_turns"
                + " WHERE session_scope = ? AND state IN ('running', 'waiting')")) {
            select.setString(1, sessionScope);
            select.setMaxRows(1);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new PersistenceException("reading a session's turns failed: " + e.getMessage(), e);
        }
    }

    /** Forgets the turns that ended before {@code before}: nothing is left of them (their sessions keep the rest). */
    public void purgeEnded(Instant before) {
        update("DELETE FROM lango_turns WHERE state IN ('done', 'failed') AND updated_at < ?", before.toEpochMilli());
    }

    /** The newest turn an edge knows by {@code reference} (an A2A task's id). */
    public Optional<TurnRecord> byReference(String reference) {
        try (PreparedStatement select = em.unwrap(Connection.class).prepareStatement("SELECT " + COLUMNS
                + " FROM lango_turns WHERE reference = ? ORDER BY started_at DESC")) {
            select.setString(1, reference);
            select.setMaxRows(1);
            return read(select).stream().findFirst();
        } catch (SQLException e) {
            throw new PersistenceException("reading a turn failed: " + e.getMessage(), e);
        }
    }

    private int update(String sql, Object... values) {
        try (PreparedStatement update = em.unwrap(Connection.class).prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    update.setNull(i + 1, Types.VARCHAR);
                } else {
                    update.setObject(i + 1, values[i]);
                }
            }
            return update.executeUpdate();
        } catch (SQLException e) {
            throw new PersistenceException("updating a turn failed: " + e.getMessage(), e);
        }
    }

    private static List<TurnRecord> read(PreparedStatement select) throws SQLException {
        List<TurnRecord> turns = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                turns.add(new TurnRecord(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                        TurnRecord.State.of(rows.getString(5)), rows.getString(6), rows.getString(7), rows.getString(8),
                        rows.getBoolean(9), rows.getString(10), rows.getBoolean(11), rows.getInt(12),
                        Instant.ofEpochMilli(rows.getLong(13)), Instant.ofEpochMilli(rows.getLong(14)),
                        Instant.ofEpochMilli(rows.getLong(15)), rows.getString(16)));
            }
        }
        return turns;
    }
}
