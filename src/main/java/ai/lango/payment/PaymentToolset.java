package ai.lango.payment;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    private static final java.util.logging.Logger LOG = ai.lango.masking.MaskedLogs.of(PaymentToolset.class);

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
        List<Tool> tools = new java.util.ArrayList<>(List.of(new WalletInfo(), new Balance(), new Limits(), new History(),
                new CreateWallet(), new Send()));
        if (payments.settings().x402()) {
            tools.add(new X402Fetch());
        }
        return tools;
    }

    private void requireSpender(Caller caller) throws ToolException {
        if (caller != null && caller.userId() != null && !ownership.mayWriteShared(caller.userId())) {
            throw new ToolException("the wallet is every user's: only an administrator spends from it or makes it");
        }
    }

    private String address() throws ToolException {
        return payments.wallet().address().orElseThrow(() -> new ToolException("there is no wallet yet: payment_create_wallet"
                + " makes one, or an operator imports one"));
    }

    private abstract class Base extends DeclaredTool {
        Base(String name, Safety safety, String description) {
            super(name, safety, description);
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(new LinkedHashMap<>(), List.of());
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            try {
                return run(args, caller);
            } catch (PaymentException e) {
                throw new ToolException(e.getMessage());
            } catch (ChainRpc.ChainException e) {
                throw new ToolException("the chain: " + e.getMessage());
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ToolException(e.getMessage());
            } catch (ToolException e) {
                throw e;
            } catch (Exception e) {
                LOG.log(java.util.logging.Level.WARNING, name() + " failed", e);
                throw new ToolException(name() + " failed (" + e.getClass().getSimpleName() + "; the server's log has more);"
                        + " payment_history shows what was stored");
            }
        }

        abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception;
    }

    private final class WalletInfo extends Base {
        WalletInfo() {
            super("payment_wallet_info", Safety.SAFE, "The payment wallet: its address, the chain, and its ETH (for gas) and"
                    + " USDC balances.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            String address = address();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("address", address);
            out.put("chainId", payments.settings().chainId());
            out.put("usdcContract", payments.settings().usdcContract());
            out.put("eth", new java.math.BigDecimal(payments.rpc().ethBalance(address)).movePointLeft(18).stripTrailingZeros()
                    .toPlainString());
            out.put("usdc", Usdc.format(payments.usdcBalance(address)));
            return out;
        }
    }

    private final class Balance extends Base {
        Balance() {
            super("payment_balance", Safety.SAFE, "The payment wallet's USDC balance.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            String address = address();
            return Map.of("address", address, "usdc", Usdc.format(payments.usdcBalance(address)));
        }
    }

    private final class Limits extends Base {
        Limits() {
            super("payment_limits", Safety.SAFE, "The payment limits (per payment, per day, approval thresholds), today's"
                    + " spend (sent and in flight) and what is left of today's limit.");
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

    private final class History extends Base {
        History() {
            super("payment_history", Safety.SAFE, "The wallet's payments, newest first, with their status (confirmed, settled,"
                    + " sent, failed …), amount, recipient, purpose and transaction hash.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("limit", ToolArgs.integer("How many, 1 to 100 (20 if not given)."));
            return ToolArgs.schema(properties, List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            int limit = ToolArgs.integer(args, "limit", 20, 1, 100);
            Optional<String> address = payments.wallet().address();
            List<Map<String, Object>> rows = address.map(a -> payments.ledger().history(a, limit)).orElse(List.of()).stream()
                    .map(PaymentToolset::view).toList();
            return Map.of("payments", rows, "count", rows.size());
        }
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

    private final class CreateWallet extends Base {
        CreateWallet() {
            super("payment_create_wallet", Safety.MODERATE, "Create the payment wallet (a new key, kept in the vault and never"
                    + " shown); refused when there is one. Returns its address, to fund it.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            requireSpender(caller);
            return Map.of("address", payments.wallet().create(), "chainId", payments.settings().chainId());
        }
    }

    private final class Send extends Base {
        Send() {
            super("payment_send", Safety.MODERATE, "Send USDC from the payment wallet. Held to the limits (payment_limits):"
                    + " above them it is refused; from the approval threshold on, a person approves it first. Returns the"
                    + " payment with its transaction hash and status.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("to", ToolArgs.string("The recipient's address (0x…, checksummed or in one case)."));
            properties.put("amount", ToolArgs.string("The amount of USDC as a decimal string, such as \"0.05\"."));
            properties.put("purpose", ToolArgs.string("What it pays for, kept in the history."));
            return ToolArgs.schema(properties, List.of("to", "amount", "purpose"));
        }

        @Override
        public boolean alwaysAsks(Map<String, Object> args) {
            try {
                return payments.decide(Usdc.parse(args.get("amount")), false).kind() == PaymentLimits.Decision.Kind.ASK;
            } catch (RuntimeException e) {
                return false; // refused as invalid when it runs
            }
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            requireSpender(caller);
            String to = EvmAddress.checksummed(ToolArgs.required(args, "to"));
            BigInteger amount = Usdc.parse(args.get("amount"));
            String purpose = ToolArgs.required(args, "purpose", 500, "500 characters");
            Payment payment = payments.send(caller == null ? "" : String.valueOf(caller.userId()),
                    caller == null ? "" : String.valueOf(caller.sessionKey()), to, amount, purpose);
            return view(payment);
        }
    }

    private final class X402Fetch extends Base {
        X402Fetch() {
            super("payment_x402_fetch", Safety.MODERATE, "Fetch a URL (http or https); when it answers 402 with an x402"
                    + " payment request, pay it in USDC and fetch again, returning the body and the settlement. Up to the"
                    + " x402 auto-pay limit this runs on its own; above it, it returns the price, and a call with"
                    + " approve_amount set to that price is approved by a person first.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("url", ToolArgs.string("The URL."));
            properties.put("method", ToolArgs.oneOf(List.of("GET", "POST", "PUT", "DELETE"), "The HTTP method (GET if not given)."));
            properties.put("body", ToolArgs.string("A JSON request body, for POST or PUT."));
            properties.put("approve_amount", ToolArgs.string("The most USDC to pay, as a decimal string: needed (and approved"
                    + " by a person) above the auto-pay limit."));
            return ToolArgs.schema(properties, List.of("url"));
        }

        @Override
        public boolean alwaysAsks(Map<String, Object> args) {
            try {
                return args.get("approve_amount") != null
                        && payments.decide(Usdc.parse(args.get("approve_amount")), true).kind() == PaymentLimits.Decision.Kind.ASK;
            } catch (RuntimeException e) {
                return false;
            }
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            requireSpender(caller);
            String url = ToolArgs.required(args, "url").strip();
            String method = Optional.ofNullable(ToolArgs.optional(args, "method")).orElse("GET").toUpperCase(java.util.Locale.ROOT);
            BigInteger approved = args.get("approve_amount") == null ? null : Usdc.parse(args.get("approve_amount"));
            Payments.Fetched fetched = payments.x402(caller == null ? "" : String.valueOf(caller.userId()),
                    caller == null ? "" : String.valueOf(caller.sessionKey()), url, method, ToolArgs.optional(args, "body"), approved);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("status", fetched.status());
            out.put("note", fetched.note());
            fetched.priceToApprove().ifPresent(price -> out.put("price", Usdc.format(price)));
            fetched.payment().ifPresent(payment -> out.put("payment", view(payment)));
            fetched.settlement().ifPresent(settlement -> out.put("settlement", settlement.toString()));
            out.put("body", fetched.body());
            return out;
        }
    }
}
