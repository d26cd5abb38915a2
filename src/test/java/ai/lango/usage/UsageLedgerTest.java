package ai.lango.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import ai.lango.turn.ModelCall;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The latest reported call of a session: what compaction measures the next request by. */
class UsageLedgerTest {

    private final UsageLedger ledger = new UsageLedger();

    UsageLedgerTest() {
        ledger.registry = new SimpleMeterRegistry();
        Budgets budgets = new Budgets();
        budgets.settings = TestSettings.of(java.nio.file.Path.of("target", "ledger-test"));
        budgets.rows = new BudgetsTest.Rows();
        ledger.budgets = budgets;
    }

    private static ModelCall call(String purpose, long input, boolean estimated, long at) {
        return new ModelCall("ann", "s1", "lango-agent", "openai", "gpt-4o-mini", purpose, input, 10, 0, estimated,
                BigDecimal.ZERO, Instant.ofEpochMilli(at));
    }

    @Test
    void theLatestAgentCallIsTakenNeverASumOverCalls() {
        ledger.counted(call(ModelCall.AGENT, 900, false, 1));
        ledger.counted(call(ModelCall.AGENT, 1200, false, 2));
        assertEquals(1200, ledger.latestReported("ann", "s1").orElseThrow().inputTokens());
        ledger.counted(call(ModelCall.AGENT, 700, false, 1)); // counted late, made earlier
        assertEquals(1200, ledger.latestReported("ann", "s1").orElseThrow().inputTokens());
    }

    @Test
    void theSummarizersOwnCallAndEstimatesAreNotTheSessionsRequest() {
        ledger.counted(call("compaction", 50_000, false, 5));
        ledger.counted(call(ModelCall.AGENT, 3_000, true, 6));
        assertTrue(ledger.latestReported("ann", "s1").isEmpty());
        ledger.counted(call(ModelCall.AGENT, 800, false, 7));
        ledger.counted(call("compaction", 50_000, false, 8));
        assertEquals(800, ledger.latestReported("ann", "s1").orElseThrow().inputTokens());
        assertTrue(ledger.latestReported("bob", "s1").isEmpty(), "another user's session of the same key");
    }
}
