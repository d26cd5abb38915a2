package ai.lango.schedule;

import ai.lango.database.LangoStartup;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The rows of {@code lango_schedules}, each statement one short autocommit one: a claim is a conditional UPDATE whose
 * count says whether this server won it, so that of the servers sharing the database one wins each fire.
 */
@ApplicationScoped
public class ScheduleRows {

    private static final String COLUMNS = "id, user_id, session_key, message, kind, spec, zone, paused, next_fire, last_fire,"
            + " last_result, created_at, claim_fire, claimed_by, claimed_at";
    /** The longest last result kept (the column's length). */
    static final int RESULT_CHARS = 2000;

    /** Unshareable: each statement gives its connection back at once (no connection is held across a turn). */
    @Resource(lookup = LangoStartup.DATA_SOURCE, shareable = false)
    DataSource dataSource;

    public void insert(Schedule s) {
        update("INSERT INTO lango_schedules (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", s.id(),
                s.userId(), s.sessionKey(), s.message(), s.kind(), s.spec(), s.zone(), s.paused(), millis(s.nextFire()),
                millis(s.lastFire()), s.lastResult().<Object>map(r -> r).orElse(NULL_TEXT), s.created().toEpochMilli(), null,
                NULL_TEXT, null);
    }

    public Optional<Schedule> get(String id) {
        return query("SELECT " + COLUMNS + " FROM lango_schedules WHERE id = ?", 1, id).stream().findFirst();
    }

    /** A user's schedules, oldest first. */
    public List<Schedule> of(String userId) {
        return query("SELECT " + COLUMNS + " FROM lango_schedules WHERE user_id = ? ORDER BY created_at, id", 10_000, userId);
    }

    public int countOf(String userId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT COUNT(*) FROM lango_schedules WHERE user_id = ?")) {
            select.setString(1, userId);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("counting schedules failed: " + e.getMessage(), e);
        }
    }

    public boolean delete(String id) {
        return update("DELETE FROM lango_schedules WHERE id = ?", id) == 1;
    }

    /** Pauses or resumes; a resumed schedule goes on at {@code next} (its first time from now). */
    public boolean pause(String id, boolean paused, Optional<Instant> next) {
        return paused ? update("UPDATE lango_schedules SET paused = ? WHERE id = ?", true, id) == 1
                : update("UPDATE lango_schedules SET paused = ?, next_fire = ? WHERE id = ?", false, millis(next), id) == 1;
    }

    /**
     * The schedules with a fire due at {@code now} that nobody claimed, and those whose claim was not renewed since
     * {@code staleBefore} (its server stopped): at most {@code limit}, the longest due first.
     */
    public List<Schedule> due(Instant now, Instant staleBefore, int limit) {
        return query("SELECT " + COLUMNS + " FROM lango_schedules WHERE (paused = FALSE AND next_fire <= ?)"
                + " OR (claim_fire IS NOT NULL AND claimed_at < ?) ORDER BY next_fire", limit, now.toEpochMilli(),
                staleBefore.toEpochMilli());
    }

    /**
     * Claims the fire due at {@code due} for {@code server}: the schedule moves on to {@code following} in the same
     * statement, so one server wins (the others find next_fire changed). Whether this server won.
     */
    public boolean claim(String id, Instant due, Optional<Instant> following, String server, Instant now) {
        return update("UPDATE lango_schedules SET next_fire = ?, last_fire = ?, claim_fire = ?, claimed_by = ?, claimed_at = ?"
                + " WHERE id = ? AND next_fire = ?", millis(following), due.toEpochMilli(), due.toEpochMilli(), server,
                now.toEpochMilli(), id, due.toEpochMilli()) == 1;
    }

    /** Moves past a missed fire without running it, saying so; whether this server did (one does). */
    public boolean skipMissed(String id, Instant due, Optional<Instant> following, String result) {
        return update("UPDATE lango_schedules SET next_fire = ?, last_fire = ?, last_result = ? WHERE id = ? AND next_fire = ?",
                millis(following), due.toEpochMilli(), cut(result), id, due.toEpochMilli()) == 1;
    }

    /** Takes over a claim its server stopped renewing (last renewed at {@code renewed}); whether this server won it. */
    public boolean takeOver(String id, Instant fire, Instant renewed, String server, Instant now) {
        return update("UPDATE lango_schedules SET claimed_by = ?, claimed_at = ? WHERE id = ? AND claim_fire = ? AND claimed_at = ?",
                server, now.toEpochMilli(), id, fire.toEpochMilli(), renewed.toEpochMilli()) == 1;
    }

    /** The claiming server is still on the fire; whether it still holds the claim. */
    public boolean renew(String id, Instant fire, String server, Instant now) {
        return update("UPDATE lango_schedules SET claimed_at = ? WHERE id = ? AND claim_fire = ? AND claimed_by = ?",
                now.toEpochMilli(), id, fire.toEpochMilli(), server) == 1;
    }

    /** The claimed fire is settled (its turn is durable, or it was skipped): the claim ends, with the result when given. */
    public void settle(String id, Instant fire, Optional<String> result) {
        if (result.isPresent()) {
            update("UPDATE lango_schedules SET claim_fire = NULL, claimed_by = NULL, claimed_at = NULL, last_result = ?"
                    + " WHERE id = ? AND claim_fire = ?", cut(result.get()), id, fire.toEpochMilli());
        } else {
            update("UPDATE lango_schedules SET claim_fire = NULL, claimed_by = NULL, claimed_at = NULL WHERE id = ? AND claim_fire = ?",
                    id, fire.toEpochMilli());
        }
    }

    /** What the fire at {@code fire} ended with, unless a later fire was recorded since. */
    public void result(String id, Instant fire, String result) {
        update("UPDATE lango_schedules SET last_result = ? WHERE id = ? AND last_fire = ?", cut(result), id, fire.toEpochMilli());
    }

    private static String cut(String result) {
        return result.length() <= RESULT_CHARS ? result : result.substring(0, RESULT_CHARS - 1) + "…";
    }

    private static Long millis(Optional<Instant> instant) {
        return instant.map(Instant::toEpochMilli).orElse(null);
    }

    private int update(String sql, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement statement = c.prepareStatement(sql)) {
            bind(statement, values);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("writing schedules failed: " + e.getMessage(), e);
        }
    }

    private List<Schedule> query(String sql, int limit, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement select = c.prepareStatement(sql)) {
            bind(select, values);
            select.setMaxRows(limit);
            List<Schedule> found = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    found.add(read(rs));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException("reading schedules failed: " + e.getMessage(), e);
        }
    }

    /** A null of a text column (a bare null is bound as a number's: PostgreSQL types a parameter by its binding). */
    private record NullOf(int sqlType) {
    }

    private static final NullOf NULL_TEXT = new NullOf(Types.VARCHAR);

    private static void bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v instanceof NullOf typed) {
                statement.setNull(i + 1, typed.sqlType());
            } else if (v == null) {
                statement.setNull(i + 1, Types.BIGINT);
            } else if (v instanceof String text) {
                statement.setString(i + 1, text);
            } else if (v instanceof Boolean b) {
                statement.setBoolean(i + 1, b);
            } else {
                statement.setLong(i + 1, ((Number) v).longValue());
            }
        }
    }

    private static Schedule read(ResultSet rs) throws SQLException {
        Optional<Instant> claimFire = instant(rs, 13);
        Optional<Schedule.Claim> claim = claimFire.map(fire -> {
            try {
                return new Schedule.Claim(fire, rs.getString(14), instant(rs, 15).orElse(Instant.EPOCH));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        return new Schedule(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getString(7), rs.getBoolean(8), instant(rs, 9), instant(rs, 10), Optional.ofNullable(rs.getString(11)),
                Instant.ofEpochMilli(rs.getLong(12)), claim);
    }

    private static Optional<Instant> instant(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(value));
    }
}
