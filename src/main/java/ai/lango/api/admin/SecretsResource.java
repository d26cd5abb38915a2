package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.security.Ownership;
import ai.lango.vault.Vault;
import ai.lango.vault.VaultEntry;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * For operators: the vault's secrets — stored (the shared ones, or a user's with {@code ?owner=}),
 * listed by name and date, deleted; never a value back. The key that seals them: {@link VaultResource}.
 */
@Path("admin/secrets")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SecretsResource {

    @Inject
    Vault vault;

    /** Stores {@code {"value": "…"}} as the secret {@code name}: 201 when new, 200 when replaced. */
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response store(@PathParam("name") String name, @QueryParam("owner") String owner, String body) {
        if (!VaultEntry.validName(name)) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_name",
                    "a secret's name has 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        String value = text(body, "value");
        if (value == null) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "the body must be {\"value\": \"…\"}");
        }
        if (value.isEmpty() || value.length() > Vault.MAX_VALUE_CHARS) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_value", "a secret's value has 1 to " + Vault.MAX_VALUE_CHARS
                    + " characters");
        }
        boolean created = vault.store(ownerOrShared(owner), name, value);
        ObjectNode answer = ApiJson.MAPPER.createObjectNode().put("name", name).put("owner", blankAsNull(owner))
                .put("status", created ? "stored" : "replaced").put("reference", "{{secret:" + name + "}}");
        return Response.status(created ? Response.Status.CREATED : Response.Status.OK).entity(answer.toString())
                .type(MediaType.APPLICATION_JSON).build();
    }

    /** Every secret's name, whose it is and when it was stored (a user's only with {@code ?owner=}); never a value. */
    @GET
    public Response list(@QueryParam("owner") String owner) {
        List<VaultEntry> entries = vault.list(blankAsNull(owner) == null ? null : List.of(owner), VaultEntry.Kind.SECRET);
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        var list = body.putArray("secrets");
        for (VaultEntry e : entries) {
            list.addObject().put("name", e.name()).put("owner", e.shared() ? null : e.id().owner()).put("shared", e.shared())
                    .put("createdAt", e.created().toString()).put("updatedAt", e.updated().toString());
        }
        return ApiJson.ok(body.put("count", entries.size()));
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("name") String name, @QueryParam("owner") String owner) {
        if (VaultEntry.validName(name) && vault.delete(new VaultEntry.Id(ownerOrShared(owner), VaultEntry.Kind.SECRET, name))) {
            return Response.noContent().build();
        }
        return ApiError.of(Response.Status.NOT_FOUND, "secret_not_found", "no secret \"" + name + "\""
                + (blankAsNull(owner) == null ? " shared by every user" : " of user \"" + owner + "\""));
    }

    static String text(String body, String field) {
        try {
            JsonNode json = body == null ? null : ApiJson.MAPPER.readTree(body);
            return json != null && json.path(field).isTextual() ? json.path(field).asText() : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static String ownerOrShared(String owner) {
        String given = blankAsNull(owner);
        return given == null ? Ownership.SHARED : given;
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
