package ai.lango.payment;

import ai.lango.security.Ownership;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The payment_ tools: payment_wallet_info, payment_balance, payment_limits and payment_history
 * (safe: reading), payment_create_wallet, payment_send and payment_x402_fetch. A send at or above
 * auto-approve-below, and an x402 fetch that names an amount above x402 max-auto-pay, wait for a
 * person whatever the approval policy says; the limits are held in {@link Payments}, not here. The
 * wallet is every user's, so only those who may write what is shared spend from it or make it.
 * The executor's in multi-agent mode.
 */
@ApplicationScoped
public class PaymentToolset implements Toolset {

    @Inject
    Payments payments;

    @Inject
    Ownership ownership;

    @Override
    public String name() {
        return "payment";
    }

    @Override
    public boolean enabled() {
        return payments.enabled();
    }

    @Override
    public int order() {
        return 66;
    }

    @Override
    public List<Tool> tools() {
        List<Tool> tools = new java.util.ArrayList<>(List.of(new WalletInfo(payments), new WalletBalance(payments),
                new ShowLimits(payments), new PaymentHistory(payments), new CreateWallet(payments, ownership),
                new SendPayment(payments, ownership)));
        if (payments.settings().x402()) {
            tools.add(new X402Fetch(payments, ownership));
        }
        return tools;
    }

    /** A payment as the tools and the admin API show it. */
    public static Map<String, Object> view(Payment payment) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", payment.id());
        out.put("kind", payment.kind().name().toLowerCase(java.util.Locale.ROOT));
        out.put("status", payment.status().name().toLowerCase(java.util.Locale.ROOT));
        out.put("amount", Usdc.format(payment.amount()));
        out.put("to", payment.to());
        out.put("purpose", payment.purpose());
        out.put("day", payment.day());
        if (payment.txHash() != null) {
            out.put("txHash", payment.txHash());
        }
        if (payment.detail() != null) {
            out.put("detail", payment.detail());
        }
        out.put("createdAt", payment.createdAt().toString());
        return out;
    }
}
