package ai.lango.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.tool.Caller;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The wallet is every user's; its history is not: who does not administer sees the payments of their own turns. */
class PaymentHistoryTest {

    private static final String WALLET = "0x00000000000000000000000000000000000000aa";
    private static final List<Payment> ROWS = List.of(payment("p1", "ann"), payment("p2", "bob"), payment("p3", "ann"));

    private static Payment payment(String id, String user) {
        return new Payment(id, Payment.Kind.SEND, user, user + "-session", WALLET, 31337, "0x00000000000000000000000000000000000000bb",
                BigInteger.valueOf(10_000), "for " + user, "2026-11-28", Payment.Status.CONFIRMED, "0", "0x1", null, null,
                Instant.EPOCH, Instant.EPOCH);
    }

    /** Payments over a ledger that answers from ROWS as its two queries would. */
    private static Payments payments() {
        Wallet theWallet = new Wallet() {
            @Override
            public Optional<String> address() {
                return Optional.of(WALLET);
            }
        };
        PaymentLedger theLedger = new PaymentLedger() {
            @Override
            public List<Payment> history(String of, int limit) {
                return ROWS.stream().filter(p -> p.wallet().equals(of)).limit(limit).toList();
            }

            @Override
            public List<Payment> historyOf(String of, String userId, int limit) {
                return ROWS.stream().filter(p -> p.wallet().equals(of) && p.userId().equals(userId)).limit(limit).toList();
            }
        };
        return new Payments() {
            @Override
            public Wallet wallet() {
                return theWallet;
            }

            @Override
            public PaymentLedger ledger() {
                return theLedger;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static List<String> ids(Map<String, Object> answer) {
        return ((List<Map<String, Object>>) answer.get("payments")).stream().map(p -> (String) p.get("id")).toList();
    }

    @Test
    void aUserWhoDoesNotAdministerSeesOnlyThePaymentsOfTheirOwnTurns() throws Exception {
        PaymentHistory history = new PaymentHistory(payments());
        assertEquals(List.of("p2"), ids(history.run(Map.of(), new Caller("bob", "s", false, false))));
        assertEquals(List.of("p1", "p3"), ids(history.run(Map.of(), new Caller("ann", "s", false, false))));
        assertEquals(List.of("p1", "p2", "p3"), ids(history.run(Map.of(), new Caller("ops", "s", true, false))), "an administrator sees all");
    }
}
