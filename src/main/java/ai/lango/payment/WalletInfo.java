package ai.lango.payment;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** payment_wallet_info: the wallet's address, chain and balances. */
final class WalletInfo extends PaymentTool {

    WalletInfo(Payments payments) {
        super("payment_wallet_info", Safety.SAFE, "The payment wallet: its address, the chain, and its ETH (for gas) and USDC"
                + " balances.", none(), payments);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        String address = address();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("address", address);
        out.put("chainId", payments.settings().chainId());
        out.put("usdcContract", payments.settings().usdcContract());
        out.put("eth", new BigDecimal(payments.rpc().ethBalance(address)).movePointLeft(18).stripTrailingZeros().toPlainString());
        out.put("usdc", Usdc.format(payments.usdcBalance(address)));
        return out;
    }
}
