package ai.lango.payment;

import java.math.BigInteger;

/**
 * The limits a payment is held to, in code and before anything is signed: above max-per-tx or
 * above what is left of the day's max-daily it is refused, naming the limit; a send at or above
 * auto-approve-below waits for a person whatever the approval policy says; an x402 payment above
 * x402 max-auto-pay does too. All in USDC base units.
 */
public record PaymentLimits(BigInteger maxPerTx, BigInteger maxDaily, BigInteger autoApproveBelow, BigInteger x402MaxAutoPay) {

    /** What happens to a payment: it runs, it waits for a person, or it is refused with the reason. */
    public record Decision(Kind kind, String reason) {
        public enum Kind { RUN, ASK, REFUSE }
    }

    /** The decision on paying {@code amount} when {@code today} is already spent or in flight, and nothing was paid unapproved. */
    public Decision decide(BigInteger amount, BigInteger today, boolean x402) {
        return decide(amount, today, BigInteger.ZERO, x402);
    }

    /**
     * The decision on paying {@code amount} when {@code today} is already spent or in flight and the
     * user paid {@code unapproved} without a person's approval in the last 24 hours: the approval
     * threshold holds for that sum and this payment together, so small payments cannot add up to a
     * large one unasked.
     */
    public Decision decide(BigInteger amount, BigInteger today, BigInteger unapproved, boolean x402) {
        if (amount.signum() <= 0) {
            return new Decision(Decision.Kind.REFUSE, "an amount above zero is needed");
        }
        if (amount.compareTo(maxPerTx) > 0) {
            return new Decision(Decision.Kind.REFUSE, Usdc.format(amount) + " USDC is above lango.payment.limits.max-per-tx ("
                    + Usdc.format(maxPerTx) + " USDC)");
        }
        BigInteger left = maxDaily.subtract(today).max(BigInteger.ZERO);
        if (amount.compareTo(left) > 0) {
            return new Decision(Decision.Kind.REFUSE, Usdc.format(amount) + " USDC is above what is left of today's"
                    + " lango.payment.limits.max-daily (" + Usdc.format(maxDaily) + " USDC; " + Usdc.format(today)
                    + " spent or in flight, " + Usdc.format(left) + " left)");
        }
        BigInteger together = amount.add(unapproved);
        if (x402 ? together.compareTo(x402MaxAutoPay) > 0 : together.compareTo(autoApproveBelow) >= 0) {
            return new Decision(Decision.Kind.ASK, Usdc.format(amount) + " USDC"
                    + (unapproved.signum() > 0 ? ", with " + Usdc.format(unapproved) + " USDC paid unapproved in the last 24"
                    + " hours," : "") + " is "
                    + (x402 ? "above lango.payment.x402.max-auto-pay (" + Usdc.format(x402MaxAutoPay)
                    : "not below lango.payment.limits.auto-approve-below (" + Usdc.format(autoApproveBelow)) + " USDC): a person approves it");
        }
        return new Decision(Decision.Kind.RUN, "within every limit");
    }
}
