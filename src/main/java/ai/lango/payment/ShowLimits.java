package ai.lango.payment;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** payment_limits: the limits in force, today's spend and what is left of it. */
final class ShowLimits extends PaymentTool {

    ShowLimits(Payments payments) {
        super("payment_limits", Safety.SAFE, "The payment limits (per payment, per day, approval thresholds), today's spend"
                + " (sent and in flight) and what is left of today's limit.", none(), payments);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) {
        PaymentLimits limits = payments.limits();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("maxPerTx", Usdc.format(limits.maxPerTx()));
        out.put("maxDaily", Usdc.format(limits.maxDaily()));
        out.put("autoApproveBelow", Usdc.format(limits.autoApproveBelow()));
        out.put("x402MaxAutoPay", Usdc.format(limits.x402MaxAutoPay()));
        Optional<String> address = payments.wallet().address();
        BigInteger today = address.map(a -> payments.ledger().committed(a, PaymentLedger.today())).orElse(BigInteger.ZERO);
        out.put("day", PaymentLedger.today());
        out.put("spentToday", Usdc.format(today));
        out.put("leftToday", Usdc.format(limits.maxDaily().subtract(today).max(BigInteger.ZERO)));
        return out;
    }
}
