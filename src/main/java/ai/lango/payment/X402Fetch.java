package ai.lango.payment;

import ai.lango.net.egress.HostPolicy;
import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * payment_x402_fetch: a URL fetched, and when it answers 402 with an x402 payment request, paid in
 * USDC and fetched again; above the auto-pay limit a person approves the price first.
 */
final class X402Fetch extends PaymentTool {

    private final Ownership ownership;

    X402Fetch(Payments payments, Ownership ownership) {
        super("payment_x402_fetch", Safety.MODERATE, "Fetch a URL (http or https); when it answers 402 with an x402 payment"
                + " request, pay it in USDC and fetch again, returning the body and the settlement. Up to the x402 auto-pay"
                + " limit this runs on its own; above it, it returns the price, and a call with approve_amount set to that"
                + " price is approved by a person first.", schema(), payments);
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("url", ToolArgs.string("The URL."));
        properties.put("method", ToolArgs.oneOf(List.of("GET", "POST", "PUT", "DELETE"), "The HTTP method (GET if not given)."));
        properties.put("body", ToolArgs.string("A JSON request body, for POST or PUT."));
        properties.put("approve_amount", ToolArgs.string("The most USDC to pay, as a decimal string: needed (and approved"
                + " by a person) above the auto-pay limit."));
        return ToolArgs.schema(properties, List.of("url"));
    }

    /** Where the request goes: the URL's host. */
    @Override
    public Optional<String> destination(Map<String, Object> args, Caller caller) {
        return Optional.of(args.get("url") instanceof String url ? HostPolicy.destination(url).orElse("*") : "*");
    }

    @Override
    public boolean alwaysAsks(Map<String, Object> args, Caller caller) {
        try {
            return args.get("approve_amount") != null && payments.decide(Usdc.parse(args.get("approve_amount")), true,
                    caller == null ? null : caller.userId()).kind() == PaymentLimits.Decision.Kind.ASK;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        requireSpender(ownership, caller);
        String url = ToolArgs.required(args, "url").strip();
        String method = Optional.ofNullable(ToolArgs.optional(args, "method")).orElse("GET").toUpperCase(Locale.ROOT);
        BigInteger approved = args.get("approve_amount") == null ? null : Usdc.parse(args.get("approve_amount"));
        Payments.Fetched fetched = payments.x402(caller == null ? "" : String.valueOf(caller.userId()),
                caller == null ? "" : String.valueOf(caller.sessionKey()), url, method, ToolArgs.optional(args, "body"), approved,
                caller != null && caller.approved());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", fetched.status());
        out.put("note", fetched.note());
        fetched.priceToApprove().ifPresent(price -> out.put("price", Usdc.format(price)));
        fetched.payment().ifPresent(payment -> out.put("payment", PaymentToolset.view(payment)));
        fetched.settlement().ifPresent(settlement -> out.put("settlement", settlement.toString()));
        out.put("body", fetched.body());
        return out;
    }
}
