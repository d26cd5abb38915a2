package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.vault.Vault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: the vault's own key (secrets themselves: {@link SecretsResource}). */
@Path("admin/vault")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class VaultResource {

    @Inject
    Vault vault;

    /**
     * Seals the vault's key with {@code {"passphrase": "…"}} (at least 12 characters) instead of what
     * sealed it so far; every server needs that passphrase (lango.security.passphrase) from its next start.
     */
    @POST
    @Path("passphrase")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response rewrap(String body) {
        String passphrase = SecretsResource.text(body, "passphrase");
        if (passphrase == null || passphrase.length() < 12) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_passphrase",
                    "the body must be {\"passphrase\": \"…\"} with at least 12 characters");
        }
        vault.rewrap(passphrase);
        return ApiJson.ok(ApiJson.MAPPER.createObjectNode().put("status", "rewrapped").put("next",
                "set lango.security.passphrase (or LANGO_SECURITY_PASSPHRASE) to the new passphrase on every server"
                        + " before its next start"));
    }

}
