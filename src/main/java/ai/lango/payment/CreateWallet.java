package ai.lango.payment;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import java.util.Map;

/** payment_create_wallet: the wallet made, its key kept in the vault; refused when there is one. */
final class CreateWallet extends PaymentTool {

    private final Ownership ownership;

    CreateWallet(Payments payments, Ownership ownership) {
        super("payment_create_wallet", Safety.MODERATE, "Create the payment wallet (a new key, kept in the vault and never"
                + " shown); refused when there is one. Returns its address, to fund it.", none(), payments);
        this.ownership = ownership;
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        requireSpender(ownership, caller);
        return Map.of("address", payments.wallet().create(), "chainId", payments.settings().chainId());
    }
}
