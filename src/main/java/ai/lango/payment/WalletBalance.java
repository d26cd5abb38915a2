package ai.lango.payment;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import java.util.Map;

/** payment_balance: the wallet's USDC balance. */
final class WalletBalance extends PaymentTool {

    WalletBalance(Payments payments) {
        super("payment_balance", Safety.SAFE, "The payment wallet's USDC balance.", none(), payments);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        String address = address();
        return Map.of("address", address, "usdc", Usdc.format(payments.usdcBalance(address)));
    }
}
