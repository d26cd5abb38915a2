package ai.lango.usage;

import ai.lango.turn.ModelCall;
import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The token and cost budgets of lango.quota.* (per user over them: lango_usage_budgets), checked before a turn
 * and before each of its model calls. What a user spent is kept in this server's memory, counted up as calls end,
 * and read again from the database — which holds every server's calls — when it is older than {@link #FRESH} or
 * the user is within {@link #NEAR} of a limit: far from every limit, a check asks no database.
 */
@ApplicationScoped
public class Budgets {

    /** How long what a user spent, and their own limits, are taken from memory. */
    static final Duration FRESH = Duration.ofSeconds(30);
    /** Past this share of a limit, every check reads the database (other servers' calls count). */
    static final double NEAR = 0.8;

    @Inject
    LangoSettings settings;

    @Inject
    UsageRows rows;

    /** A user's limits; null: the setting's; 0: no limit. */
    public record Limits(Long tokensPerDay, BigDecimal costPerDay, BigDecimal costPerMonth) {
        public static final Limits DEFAULTS = new Limits(null, null, null);
    }

    /**
     * A budget reached: which, what was spent, the limit, when it resets, and whose limit it is — the user's own
     * ({@code ownOf}, the user's id: set through PUT /api/admin/users/{id}) or, when null, the setting's.
     */
    public record Exceeded(String budget, String spent, String limit, Instant resetsAt, String ownOf) {
        public String message() {
            String where = ownOf == null ? "lango.quota." + budget
                    : "your own limit: \"" + field(budget) + "\" of PUT /api/admin/users/" + ownOf + ", which an administrator sets";
            return "you have spent " + spent + " of your " + budget.replace('-', ' ') + " budget of " + limit
                    + " (" + where + "); it resets at " + resetsAt;
        }

        /** The field of a user's own limit, as the admin API names it: tokens-per-day is tokensPerDay. */
        private static String field(String budget) {
            StringBuilder camel = new StringBuilder();
            for (String word : budget.split("-")) {
                camel.append(camel.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
            }
            return camel.toString();
        }

        public Duration retryAfter(Instant now) {
            return Duration.between(now, resetsAt).isNegative() ? Duration.ZERO : Duration.between(now, resetsAt);
        }
    }

    /** Where a user stands: the limits in force (0: none) and what was spent today and this month. */
    public record Standing(long tokensPerDay, BigDecimal costPerDay, BigDecimal costPerMonth, long tokensToday,
                           BigDecimal costToday, BigDecimal costThisMonth, Instant dayResets, Instant monthResets) {
    }

    private record Spent(String day, String month, long tokensToday, BigDecimal costToday, BigDecimal costMonth, long readAt) {
    }

    private record Own(Limits limits, long readAt) {
    }

    private final Map<String, Spent> spent = new ConcurrentHashMap<>();
    private final Map<String, Own> own = new ConcurrentHashMap<>();

    /** Whether {@code userId}'s budgets bind them: everyone's, administrators' only with lango.quota.admins. */
    private boolean binds(boolean admin) {
        return !admin || settings.access().quotas().budgetsBindAdmins();
    }

    /** The limits in force for the user: their own where set, else the settings'. */
    Limits limits(String userId) {
        Own known = own.get(userId);
        long now = System.currentTimeMillis();
        if (known == null || now - known.readAt() > FRESH.toMillis()) {
            known = new Own(rows.budgetOf(userId).orElse(Limits.DEFAULTS), now);
            own.put(userId, known);
        }
        LangoSettings.Quotas quotas = settings.access().quotas();
        Limits set = known.limits();
        return new Limits(set.tokensPerDay() != null ? set.tokensPerDay() : (long) quotas.tokensPerDay(),
                set.costPerDay() != null ? set.costPerDay() : quotas.costPerDay(),
                set.costPerMonth() != null ? set.costPerMonth() : quotas.costPerMonth());
    }

    /** Sets a user's own limits (null: the setting's) on every server (others read them within {@link #FRESH}). */
    public void set(String userId, Limits limits) {
        rows.setBudget(userId, limits);
        own.remove(userId);
    }

    /** The user's own limits as set (null where the setting's apply). */
    public Limits own(String userId) {
        return rows.budgetOf(userId).orElse(Limits.DEFAULTS);
    }

    private static boolean unlimited(Limits limits) {
        return limits.tokensPerDay() == 0 && limits.costPerDay().signum() == 0 && limits.costPerMonth().signum() == 0;
    }

    /** The first budget the user has reached, if any: then their next model call must not happen. */
    public Optional<Exceeded> check(String userId, boolean admin) {
        if (!binds(admin)) {
            return Optional.empty();
        }
        Limits limits = limits(userId);
        if (unlimited(limits)) {
            return Optional.empty();
        }
        Spent now = spentBy(userId, limits);
        Limits mine = Optional.ofNullable(own.get(userId)).map(Own::limits).orElse(Limits.DEFAULTS); // as limits() read them
        Instant day = LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        if (limits.tokensPerDay() > 0 && now.tokensToday() >= limits.tokensPerDay()) {
            return Optional.of(new Exceeded("tokens-per-day", now.tokensToday() + " tokens", limits.tokensPerDay() + " tokens", day,
                    mine.tokensPerDay() != null ? userId : null));
        }
        if (limits.costPerDay().signum() > 0 && now.costToday().compareTo(limits.costPerDay()) >= 0) {
            return Optional.of(new Exceeded("cost-per-day", "$" + money(now.costToday()), "$" + money(limits.costPerDay()), day,
                    mine.costPerDay() != null ? userId : null));
        }
        if (limits.costPerMonth().signum() > 0 && now.costMonth().compareTo(limits.costPerMonth()) >= 0) {
            Instant month = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1).plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC);
            return Optional.of(new Exceeded("cost-per-month", "$" + money(now.costMonth()), "$" + money(limits.costPerMonth()), month,
                    mine.costPerMonth() != null ? userId : null));
        }
        return Optional.empty();
    }

    /** Where the user stands now, read from the database. */
    public Standing standing(String userId, boolean admin) {
        Limits limits = binds(admin) ? limits(userId) : new Limits(0L, BigDecimal.ZERO, BigDecimal.ZERO);
        Spent now = read(userId);
        spent.put(userId, now);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        return new Standing(limits.tokensPerDay(), limits.costPerDay(), limits.costPerMonth(), now.tokensToday(),
                now.costToday(), now.costMonth(), today.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC),
                today.withDayOfMonth(1).plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    /** What the user spent: from memory when recent and far from the limits, else from the database. */
    private Spent spentBy(String userId, Limits limits) {
        Spent known = spent.get(userId);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        boolean current = known != null && known.day().equals(today.toString())
                && System.currentTimeMillis() - known.readAt() <= FRESH.toMillis();
        if (current && far(known, limits)) {
            return known;
        }
        Spent read = read(userId);
        spent.put(userId, read);
        return read;
    }

    private static boolean far(Spent s, Limits limits) {
        return (limits.tokensPerDay() == 0 || s.tokensToday() < limits.tokensPerDay() * NEAR)
                && (limits.costPerDay().signum() == 0 || s.costToday().doubleValue() < limits.costPerDay().doubleValue() * NEAR)
                && (limits.costPerMonth().signum() == 0 || s.costMonth().doubleValue() < limits.costPerMonth().doubleValue() * NEAR);
    }

    private Spent read(String userId) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        UsageRows.Spent day = rows.spentSince(userId, today.atStartOfDay().toInstant(ZoneOffset.UTC));
        UsageRows.Spent month = rows.spentSince(userId, today.withDayOfMonth(1).atStartOfDay().toInstant(ZoneOffset.UTC));
        return new Spent(today.toString(), today.withDayOfMonth(1).toString(), day.tokens(), day.costUsd(), month.costUsd(),
                System.currentTimeMillis());
    }

    /** A call this server made: counted at once, before its row commits. */
    void spent(ModelCall call) {
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        spent.computeIfPresent(call.userId(), (user, s) -> s.day().equals(today)
                ? new Spent(s.day(), s.month(), s.tokensToday() + call.tokens(), s.costToday().add(call.costUsd()),
                s.costMonth().add(call.costUsd()), s.readAt())
                : null);
    }

    static String money(BigDecimal amount) {
        return amount.setScale(4, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

}
