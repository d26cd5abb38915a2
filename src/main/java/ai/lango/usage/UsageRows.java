package ai.lango.usage;

import ai.lango.turn.ModelCall;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * lango_usage and lango_usage_budgets: a background call's usage in a transaction of its own; the agent's calls
 * inserted on the connection of the session write that commits their answer ({@link #insert}); the sums that
 * budgets and the usage API read.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class UsageRows {

    private static final String INSERT = "INSERT INTO lango_usage (id, user_id, session_key, agent, provider, model, purpose,"
            + " input_tokens, output_tokens, cached_tokens, estimated, cost_usd, at_millis, day_utc)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** The calls, inserted in one batch on {@code connection}: inside the caller's transaction. */
    public static void insert(Connection connection, List<ModelCall> calls) throws SQLException {
        if (calls.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (ModelCall call : calls) {
                insert.setString(1, UUID.randomUUID().toString());
                insert.setString(2, call.userId());
                insert.setString(3, call.sessionKey());
                insert.setString(4, call.agent());
                insert.setString(5, call.provider());
                insert.setString(6, call.model());
                insert.setString(7, call.purpose());
                insert.setLong(8, call.inputTokens());
                insert.setLong(9, call.outputTokens());
                insert.setLong(10, call.cachedTokens());
                insert.setBoolean(11, call.estimated());
                insert.setBigDecimal(12, call.costUsd());
                insert.setLong(13, call.at().toEpochMilli());
                insert.setString(14, day(call.at()));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** The calls, in a transaction of their own (background calls, and what a turn left unwritten). */
    public void record(List<ModelCall> calls) {
        calls.forEach(call -> em.persist(new UsageEntity(call)));
        em.flush();
    }

    /** Tokens and cost of one user's calls since {@code since}. */
    public Spent spentSince(String userId, Instant since) {
        Object[] row = em.createQuery("SELECT SUM(u.inputTokens + u.outputTokens), SUM(u.costUsd) FROM UsageEntity u"
                        + " WHERE u.userId = :user AND u.atMillis >= :since", Object[].class)
                .setParameter("user", userId).setParameter("since", since.toEpochMilli()).getSingleResult();
        return new Spent(row[0] == null ? 0 : ((Number) row[0]).longValue(), row[1] == null ? BigDecimal.ZERO : (BigDecimal) row[1]);
    }

    /** Tokens and cost spent. */
    public record Spent(long tokens, BigDecimal costUsd) {
        public Spent plus(long moreTokens, BigDecimal moreCost) {
            return new Spent(tokens + moreTokens, costUsd.add(moreCost));
        }
    }

    /** Totals of calls: tokens in, out and cached, cost, and how many calls (some of them estimated). */
    public record Totals(long inputTokens, long outputTokens, long cachedTokens, BigDecimal costUsd, long calls, long estimated) {
        static final Totals NONE = new Totals(0, 0, 0, BigDecimal.ZERO, 0, 0);
    }

    /** The totals of the calls matching the filter, grouped by {@code by} (day, model, session, user, purpose, agent; null: one group). */
    public Map<String, Totals> totals(Optional<String> userId, Optional<String> sessionKey, Instant from, Instant to, String by) {
        String group = switch (by == null ? "" : by) {
            case "model" -> "u.model";
            case "session" -> "u.sessionKey";
            case "user" -> "u.userId";
            case "purpose" -> "u.purpose";
            case "agent" -> "u.agent";
            case "day" -> "u.dayUtc";
            default -> null;
        };
        StringBuilder jpql = new StringBuilder("SELECT ").append(group == null ? "''" : group)
                .append(", SUM(u.inputTokens), SUM(u.outputTokens), SUM(u.cachedTokens), SUM(u.costUsd), COUNT(u),"
                        + " SUM(CASE WHEN u.estimated = TRUE THEN 1 ELSE 0 END) FROM UsageEntity u"
                        + " WHERE u.atMillis >= :from AND u.atMillis < :to");
        userId.ifPresent(u -> jpql.append(" AND u.userId = :user"));
        sessionKey.ifPresent(s -> jpql.append(" AND u.sessionKey = :session"));
        if (group != null) {
            jpql.append(" GROUP BY ").append(group);
        }
        TypedQuery<Object[]> query = em.createQuery(jpql.toString(), Object[].class)
                .setParameter("from", from.toEpochMilli()).setParameter("to", to.toEpochMilli());
        userId.ifPresent(u -> query.setParameter("user", u));
        sessionKey.ifPresent(s -> query.setParameter("session", s));
        Map<String, Totals> totals = new LinkedHashMap<>();
        for (Object[] row : query.getResultList()) {
            if (row[5] == null || ((Number) row[5]).longValue() == 0) {
                continue;
            }
            String key = group == null ? "" : String.valueOf(row[0]);
            Totals t = new Totals(number(row[1]), number(row[2]), number(row[3]), row[4] == null ? BigDecimal.ZERO : (BigDecimal) row[4],
                    number(row[5]), number(row[6]));
            totals.merge(key, t, (a, b) -> new Totals(a.inputTokens() + b.inputTokens(), a.outputTokens() + b.outputTokens(),
                    a.cachedTokens() + b.cachedTokens(), a.costUsd().add(b.costUsd()), a.calls() + b.calls(),
                    a.estimated() + b.estimated()));
        }
        return totals;
    }

    static String day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC).toString();
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    public Optional<Budgets.Limits> budgetOf(String userId) {
        return Optional.ofNullable(em.find(UsageBudgetEntity.class, userId)).map(UsageBudgetEntity::limits);
    }

    public void setBudget(String userId, Budgets.Limits limits) {
        UsageBudgetEntity row = em.find(UsageBudgetEntity.class, userId);
        if (row == null) {
            em.persist(new UsageBudgetEntity(userId, limits));
        } else {
            row.set(limits);
        }
    }

}
