package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.config.HostRule;
import ai.lango.config.Ids;
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

    /**
     * Stores {@code {"value": "…", "hosts": […], "tools": […], "users": […]}} as the secret {@code name},
     * bound to where its value may go (hosts, tools; and users of a shared one, besides administrators;
     * each list the default when absent): 201 when new, 200 when replaced.
     */
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
        java.util.Optional<String> problem = Vault.valueProblem(value);
        if (problem.isPresent()) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_value", problem.get());
        }
        VaultEntry.Binding binding;
        try {
            binding = binding(body, blankAsNull(owner) == null);
        } catch (IllegalArgumentException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_binding", e.getMessage());
        }
        boolean created = vault.store(ownerOrShared(owner), name, value, binding);
        ObjectNode answer = ApiJson.MAPPER.createObjectNode().put("name", name).put("owner", blankAsNull(owner))
                .put("status", created ? "stored" : "replaced").put("reference", "{{secret:" + name + "}}");
        answer.set("binding", binding(binding));
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
                    .put("createdAt", e.created().toString()).put("updatedAt", e.updated().toString())
                    .set("binding", binding(e.binding()));
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

    /** The binding a body gives: hosts, tools and (for a shared secret) users; the defaults where absent. */
    static VaultEntry.Binding binding(String body, boolean shared) {
        JsonNode json;
        try {
            json = ApiJson.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON");
        }
        List<String> hosts = strings(json, "hosts", List.of());
        for (String host : hosts) {
            if (!host.equals("*")) {
                HostRule.problem(host).ifPresent(problem -> {
                    throw new IllegalArgumentException("hosts: " + problem);
                });
            }
        }
        List<String> tools = strings(json, "tools", VaultEntry.Binding.DEFAULT_TOOLS);
        for (String tool : tools) {
            if (!tool.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("tools: \"" + tool + "\" is not a tool's name");
            }
        }
        List<String> users = strings(json, "users", List.of());
        if (!users.isEmpty() && !shared) {
            throw new IllegalArgumentException("users: only a shared secret names its users (a user's own secret is theirs alone)");
        }
        for (String user : users) {
            if (!Ids.valid(user)) {
                throw new IllegalArgumentException("users: \"" + user + "\" is not a user id (" + Ids.RULE + ")");
            }
        }
        return new VaultEntry.Binding(hosts, tools, users);
    }

    private static List<String> strings(JsonNode json, String field, List<String> fallback) {
        JsonNode node = json.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return fallback;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException(field + " must be an array of strings");
        }
        List<String> values = new java.util.ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isTextual() || item.asText().isBlank()) {
                throw new IllegalArgumentException(field + " must be an array of strings");
            }
            values.add(item.asText().strip());
        }
        return values;
    }

    private static ObjectNode binding(VaultEntry.Binding binding) {
        ObjectNode node = ApiJson.MAPPER.createObjectNode();
        binding.hosts().forEach(node.putArray("hosts")::add);
        binding.tools().forEach(node.putArray("tools")::add);
        binding.users().forEach(node.putArray("users")::add);
        return node;
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
