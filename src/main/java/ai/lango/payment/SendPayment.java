package ai.lango.payment;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** payment_send: USDC sent from the wallet, held to the limits; from the approval threshold on, a person approves it first. */
final class SendPayment extends PaymentTool {

    private final Ownership ownership;

    SendPayment(Payments payments, Ownership ownership) {
        super("payment_send", Safety.MODERATE, "Send USDC from the payment wallet. Held to the limits (payment_limits): above"
                + " them it is refused; from the approval threshold on, a person approves it first. Returns the payment with its"
                + " transaction hash and status.", schema(), payments);
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("to", ToolArgs.string("The recipient's address (0x…, checksummed or in one case)."));
        properties.put("amount", ToolArgs.string("The amount of USDC as a decimal string, such as \"0.05\"."));
        properties.put("purpose", ToolArgs.string("What it pays for, kept in the history."));
        return ToolArgs.schema(properties, List.of("to", "amount", "purpose"));
    }

    @Override
    public boolean alwaysAsks(Map<String, Object> args, Caller caller) {
        try {
            return payments.decide(Usdc.parse(args.get("amount")), false, caller == null ? null : caller.userId()).kind()
                    == PaymentLimits.Decision.Kind.ASK;
        } catch (RuntimeException e) {
            return false; // refused as invalid when it runs
        }
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        requireSpender(ownership, caller);
        String to = EvmAddress.checksummed(ToolArgs.required(args, "to"));
        BigInteger amount = Usdc.parse(args.get("amount"));
        String purpose = ToolArgs.required(args, "purpose", 500, "500 characters");
        Payment payment = payments.send(caller == null ? "" : String.valueOf(caller.userId()),
                caller == null ? "" : String.valueOf(caller.sessionKey()), to, amount, purpose, caller != null && caller.approved());
        return PaymentToolset.view(payment);
    }
}
