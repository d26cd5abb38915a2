package ai.lango.usage;

import ai.lango.turn.ModelCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Budgets per user: refused past a limit, far from one without asking the database, administrators as configured. */
class BudgetsTest {

    /** The database of spending, counted: how often it was asked. */
    static final class Rows extends UsageRows {
        long tokens;
        BigDecimal cost = BigDecimal.ZERO;
        int reads;
        final Map<String, Budgets.Limits> own = new HashMap<>();

        @Override
        public Spent spentSince(String userId, Instant since) {
            reads++;
            return new Spent(tokens, cost);
        }

        @Override
        public Optional<Budgets.Limits> budgetOf(String userId) {
            return Optional.ofNullable(own.get(userId));
        }

        @Override
        public void setBudget(String userId, Budgets.Limits limits) {
            own.put(userId, limits);
        }
    }

    private final Rows rows = new Rows();

    private Budgets budgets(String... settings) {
        Budgets budgets = new Budgets();
        budgets.settings = TestSettings.of(java.nio.file.Path.of("target", "budgets-test"), settings);
        budgets.rows = rows;
        return budgets;
    }

    private static ModelCall call(long tokens, String cost) {
        return new ModelCall("ann", "s", "lango-agent", "openai", "gpt-4o-mini", ModelCall.AGENT, tokens, 0, 0, false,
                new BigDecimal(cost), Instant.now());
    }

    @Test
    void aUserPastTheirDailyTokensIsRefusedUntilMidnightUtc() {
        Budgets budgets = budgets("lango.quota.tokens-per-day", "100");
        rows.tokens = 100;
        Budgets.Exceeded reached = budgets.check("ann", false).orElseThrow();
        assertEquals("tokens-per-day", reached.budget());
        assertEquals(LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC), reached.resetsAt());
        assertTrue(reached.message().contains("100 tokens") && reached.message().contains("lango.quota.tokens-per-day"),
                reached.message());
    }

    @Test
    void farFromEveryLimitACheckAsksNoDatabase() {
        Budgets budgets = budgets("lango.quota.tokens-per-day", "1000");
        rows.tokens = 10;
        assertTrue(budgets.check("ann", false).isEmpty());
        int read = rows.reads;
        for (int i = 0; i < 100; i++) {
            assertTrue(budgets.check("ann", false).isEmpty());
        }
        assertEquals(read, rows.reads, "answered from memory");
    }

    @Test
    void nearALimitEveryCheckReadsTheDatabaseWhereOtherServersCallsCount() {
        Budgets budgets = budgets("lango.quota.tokens-per-day", "1000");
        rows.tokens = 10;
        budgets.check("ann", false);
        budgets.spent(call(850, "0")); // this server's calls: now near the limit
        int read = rows.reads;
        rows.tokens = 1000; // another server's calls took the rest
        assertTrue(budgets.check("ann", false).isPresent());
        assertTrue(rows.reads > read);
    }

    @Test
    void costBudgetsPerDayAndMonthAreChecked() {
        rows.cost = new BigDecimal("2.5");
        assertEquals("cost-per-day", budgets("lango.quota.cost-per-day", "2").check("ann", false).orElseThrow().budget());
        Budgets.Exceeded month = budgets("lango.quota.cost-per-month", "2.5").check("ann", false).orElseThrow();
        assertEquals("cost-per-month", month.budget());
        assertEquals(LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1).plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC),
                month.resetsAt());
        assertTrue(month.message().contains("$2.5"), month.message());
    }

    @Test
    void administratorsAreExemptUnlessTheBudgetsBindThem() {
        rows.tokens = 500;
        assertTrue(budgets("lango.quota.tokens-per-day", "100").check("root", true).isEmpty());
        assertTrue(budgets("lango.quota.tokens-per-day", "100", "lango.quota.admins", "true").check("root", true).isPresent());
    }

    @Test
    void aUsersOwnLimitOverridesTheSettingAndZeroLiftsIt() {
        rows.tokens = 500;
        Budgets budgets = budgets("lango.quota.tokens-per-day", "100");
        budgets.set("ann", new Budgets.Limits(0L, null, null));
        assertTrue(budgets.check("ann", false).isEmpty(), "0: no limit for ann");
        assertTrue(budgets.check("bob", false).isPresent(), "the setting for everyone else");
        budgets.set("ann", new Budgets.Limits(1000L, null, null));
        assertTrue(budgets.check("ann", false).isEmpty());
        assertEquals(1000, budgets.standing("ann", false).tokensPerDay());
    }

    @Test
    void theMessageNamesWhereTheLimitWasSetTheUsersOwnOrTheSetting() {
        rows.tokens = 500;
        rows.cost = new BigDecimal("3");
        Budgets budgets = budgets("lango.quota.tokens-per-day", "100", "lango.quota.cost-per-day", "1");
        budgets.set("ann", new Budgets.Limits(200L, null, null));
        String own = budgets.check("ann", false).orElseThrow().message();
        assertTrue(own.contains("200 tokens") && own.contains("\"tokensPerDay\" of PUT /api/admin/users/ann")
                && !own.contains("lango.quota"), own);
        budgets.set("ann", new Budgets.Limits(0L, null, null));
        String setting = budgets.check("ann", false).orElseThrow().message();
        assertTrue(setting.contains("$1") && setting.contains("(lango.quota.cost-per-day)") && !setting.contains("admin"), setting);
        budgets.set("ann", new Budgets.Limits(0L, new BigDecimal("2"), null));
        String ownCost = budgets.check("ann", false).orElseThrow().message();
        assertTrue(ownCost.contains("\"costPerDay\" of PUT /api/admin/users/ann"), ownCost);
    }

    @Test
    void withoutLimitsNothingIsAsked() {
        assertTrue(budgets().check("ann", false).isEmpty());
        assertEquals(0, rows.reads);
    }
}
