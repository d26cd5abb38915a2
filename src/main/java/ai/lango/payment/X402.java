package ai.lango.payment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * x402 v2 over HTTP: the PAYMENT-REQUIRED header of a 402 (base64 JSON) read, the requirement this
 * wallet can meet chosen (scheme "exact", this chain as eip155:&lt;id&gt;, this USDC), the
 * PAYMENT-SIGNATURE built around a signed EIP-3009 authorization, and the PAYMENT-RESPONSE read.
 */
public final class X402 {

    public static final String REQUIRED = "PAYMENT-REQUIRED";
    public static final String SIGNATURE = "PAYMENT-SIGNATURE";
    public static final String RESPONSE = "PAYMENT-RESPONSE";
    private static final ObjectMapper JSON = new ObjectMapper();

    private X402() {
    }

    /** A requirement this wallet can pay: how much, to whom, for how long, and the token's EIP-712 name and version if given. */
    public record Requirement(JsonNode raw, BigInteger amount, String payTo, long maxTimeoutSeconds, Optional<String> name,
                              Optional<String> version, JsonNode resource) {
    }

    /** The requirement of a PAYMENT-REQUIRED header this wallet can pay, or why none is. */
    public static Requirement choose(String header, long chainId, String usdc) throws PaymentException {
        JsonNode required;
        try {
            required = JSON.readTree(Base64.getDecoder().decode(header.strip()));
        } catch (Exception e) {
            throw new PaymentException("the 402's PAYMENT-REQUIRED header is not base64 JSON");
        }
        if (required.path("x402Version").asInt() != 2) {
            throw new PaymentException("the 402 speaks x402 version " + required.path("x402Version").asText("?") + "; only 2 is paid");
        }
        String network = "eip155:" + chainId;
        StringBuilder offered = new StringBuilder();
        for (JsonNode accept : required.path("accepts")) {
            offered.append(offered.length() == 0 ? "" : ", ").append(accept.path("scheme").asText()).append(" on ")
                    .append(accept.path("network").asText()).append(" in ").append(accept.path("asset").asText());
            if ("exact".equals(accept.path("scheme").asText()) && network.equals(accept.path("network").asText())
                    && usdc.toLowerCase(Locale.ROOT).equals(accept.path("asset").asText().toLowerCase(Locale.ROOT))) {
                BigInteger amount;
                try {
                    amount = new BigInteger(accept.path("amount").asText(accept.path("maxAmountRequired").asText()));
                } catch (NumberFormatException e) {
                    throw new PaymentException("the 402 asks for an amount that is not a whole number of base units");
                }
                String payTo = EvmAddress.checksummed(accept.path("payTo").asText());
                JsonNode extra = accept.path("extra");
                return new Requirement(accept, amount, payTo, Math.max(10, accept.path("maxTimeoutSeconds").asLong(60)),
                        Optional.ofNullable(extra.path("name").textValue()), Optional.ofNullable(extra.path("version").textValue()),
                        required.path("resource"));
            }
        }
        throw new PaymentException("the 402 accepts nothing this wallet pays (exact, " + network + ", USDC " + usdc + "): it offers "
                + (offered.length() == 0 ? "nothing" : offered));
    }

    /** The PAYMENT-SIGNATURE header for a signed authorization of {@code requirement}. */
    public static String signatureHeader(Requirement requirement, TransferAuthorization authorization, String signature) {
        ObjectNode payload = JSON.createObjectNode().put("x402Version", 2);
        if (!requirement.resource().isMissingNode()) {
            payload.set("resource", requirement.resource());
        }
        payload.set("accepted", requirement.raw());
        ObjectNode inner = payload.putObject("payload").put("signature", signature);
        inner.putObject("authorization").put("from", authorization.from()).put("to", authorization.to())
                .put("value", authorization.value().toString()).put("validAfter", authorization.validAfter().toString())
                .put("validBefore", authorization.validBefore().toString())
                .put("nonce", org.web3j.utils.Numeric.toHexString(authorization.nonce()));
        return Base64.getEncoder().encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The settlement a PAYMENT-RESPONSE header reports, as JSON; empty when there is none or it is not base64 JSON. */
    public static Optional<JsonNode> settlement(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(Base64.getDecoder().decode(header.strip())));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
