package ai.lango.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The approval threshold holds for what a user paid unapproved over 24 hours and this payment together. */
class PaymentApprovalThresholdTest {

    private static final BigInteger CENTS_9 = BigInteger.valueOf(90_000);
    private final PaymentLimits limits = new PaymentLimits(BigInteger.valueOf(1_000_000), BigInteger.valueOf(10_000_000),
            BigInteger.valueOf(100_000), BigInteger.valueOf(500_000));

    @Test
    void aSmallPaymentRunsOnItsOwn() {
        assertEquals(PaymentLimits.Decision.Kind.RUN, limits.decide(CENTS_9, BigInteger.ZERO, BigInteger.ZERO, false).kind());
    }

    @Test
    void theSecondSmallPaymentThatReachesTheThresholdWaitsForAPerson() {
        PaymentLimits.Decision second = limits.decide(CENTS_9, CENTS_9, CENTS_9, false);
        assertEquals(PaymentLimits.Decision.Kind.ASK, second.kind());
        assertEquals("0.09 USDC, with 0.09 USDC paid unapproved in the last 24 hours, is not below"
                + " lango.payment.limits.auto-approve-below (0.10 USDC): a person approves it", second.reason());
    }

    @Test
    void theDaysLimitRefusesBeforeAnyoneIsAsked() {
        assertEquals(PaymentLimits.Decision.Kind.REFUSE, limits.decide(CENTS_9, BigInteger.valueOf(9_950_000), CENTS_9, false).kind());
    }
}
