package ai.lango.payment;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** payment_history: the wallet's payments, newest first. */
final class PaymentHistory extends PaymentTool {

    PaymentHistory(Payments payments) {
        super("payment_history", Safety.SAFE, "The wallet's payments, newest first, with their status (confirmed, settled,"
                + " sent, failed …), amount, recipient, purpose and transaction hash.", schema(), payments);
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("limit", ToolArgs.integer("How many, 1 to 100 (20 if not given)."));
        return ToolArgs.schema(properties, List.of());
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        int limit = ToolArgs.integer(args, "limit", 20, 1, 100);
        Optional<String> address = payments.wallet().address();
        // The wallet is every user's; who does not administer sees the payments of their own turns.
        boolean everyone = caller == null || caller.admin();
        List<Map<String, Object>> rows = address.map(a -> everyone ? payments.ledger().history(a, limit)
                        : payments.ledger().historyOf(a, caller.userId(), limit)).orElse(List.of()).stream()
                .map(PaymentToolset::view).toList();
        return Map.of("payments", rows, "count", rows.size());
    }
}
