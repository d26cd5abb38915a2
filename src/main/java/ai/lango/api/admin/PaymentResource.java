package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.payment.PaymentLedger;
import ai.lango.payment.PaymentToolset;
import ai.lango.payment.Payments;
import ai.lango.payment.Usdc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigInteger;
import java.util.Optional;

/**
 * For operators: the payment wallet's address, the limits and today's spend, the recent payments;
 * and importing the wallet's private key (read as sent, stored sealed, never returned).
 */
@Path("admin/payment")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class PaymentResource {

    @Inject
    Payments payments;

    @GET
    public Response status() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("enabled", payments.enabled())
                .put("chainId", payments.settings().chainId()).put("usdcContract", payments.settings().usdcContract());
        Optional<String> address = payments.wallet().address();
        body.put("wallet", address.orElse(null));
        BigInteger today = address.map(a -> payments.ledger().committed(a, PaymentLedger.today())).orElse(BigInteger.ZERO);
        body.put("spentToday", Usdc.format(today)).put("maxDaily", Usdc.format(payments.limits().maxDaily()));
        body.set("payments", ApiJson.MAPPER.valueToTree(address.map(a -> payments.ledger().history(a, 50)).orElse(java.util.List.of())
                .stream().map(PaymentToolset::view).toList()));
        return ApiJson.ok(body);
    }

    /** Imports {@code {"privateKey": "0x…", "replace": false}} as the wallet: 201 with its address. */
    @PUT
    @Path("wallet")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response importWallet(String body) {
        JsonNode request;
        try {
            request = ApiJson.MAPPER.readTree(body == null ? "" : body);
        } catch (Exception e) {
            request = null;
        }
        if (request == null || !request.path("privateKey").isTextual()) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "the body must be {\"privateKey\": \"0x…\"}");
        }
        try {
            String address = payments.wallet().importKey(request.path("privateKey").asText(), request.path("replace").asBoolean(false));
            return Response.status(Response.Status.CREATED).type(MediaType.APPLICATION_JSON)
                    .entity(ApiJson.MAPPER.createObjectNode().put("address", address).toString()).build();
        } catch (IllegalArgumentException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_key", e.getMessage());
        } catch (IllegalStateException e) {
            return ApiError.of(Response.Status.CONFLICT, "wallet_exists", e.getMessage());
        }
    }
}
