package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.TokenRevoked;
import ai.lango.security.UserTokenStore;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * Users with API tokens, for administrators (the admin API's filter keeps everyone else out): issue
 * (the token is in this answer only), list (never a token), revoke. A revoked or replaced token
 * ends at once: the sockets opened with it are closed.
 */
@Path("admin/users")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class AdminUsersResource {

    @Inject
    UserTokenStore users;

    @Inject
    Credentials credentials;

    @Inject
    Event<TokenRevoked> revoked;

    @Inject
    ai.lango.usage.Budgets budgets;

    /**
     * The budgets a request sets ({@code "tokensPerDay"}, {@code "costPerDay"}, {@code "costPerMonth"}; null: the
     * setting's; 0: none); empty when it names none; a 400 response for a value that is not one.
     */
    private static Object budget(JsonNode request) {
        if (!request.has("tokensPerDay") && !request.has("costPerDay") && !request.has("costPerMonth")) {
            return Optional.empty();
        }
        JsonNode tokens = request.path("tokensPerDay");
        if (!tokens.isMissingNode() && !tokens.isNull() && !(tokens.canConvertToLong() && tokens.asLong() >= 0)) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_budget", "tokensPerDay must be a whole number of 0 or"
                    + " more (0: no limit) or null (the setting's)");
        }
        java.math.BigDecimal[] costs = new java.math.BigDecimal[2];
        String[] names = {"costPerDay", "costPerMonth"};
        for (int i = 0; i < 2; i++) {
            JsonNode cost = request.path(names[i]);
            if (cost.isMissingNode() || cost.isNull()) {
                continue;
            }
            try {
                costs[i] = new java.math.BigDecimal(cost.asText());
            } catch (NumberFormatException e) {
                costs[i] = null;
            }
            if (!(cost.isNumber() || cost.isTextual()) || costs[i] == null || costs[i].signum() < 0) {
                return ApiError.of(Response.Status.BAD_REQUEST, "invalid_budget", names[i] + " must be US dollars, 0 or more"
                        + " (0: no limit), or null (the setting's)");
            }
        }
        return Optional.of(new ai.lango.usage.Budgets.Limits(tokens.isMissingNode() || tokens.isNull() ? null : tokens.asLong(),
                costs[0], costs[1]));
    }

    private static void putBudget(ObjectNode node, ai.lango.usage.Budgets.Limits limits) {
        ObjectNode budget = node.putObject("budget");
        if (limits.tokensPerDay() == null) {
            budget.putNull("tokensPerDay");
        } else {
            budget.put("tokensPerDay", limits.tokensPerDay());
        }
        for (var entry : java.util.Map.of("costPerDay", Optional.ofNullable(limits.costPerDay()),
                "costPerMonth", Optional.ofNullable(limits.costPerMonth())).entrySet()) {
            if (entry.getValue().isEmpty()) {
                budget.putNull(entry.getKey());
            } else {
                budget.put(entry.getKey(), entry.getValue().get().stripTrailingZeros().toPlainString());
            }
        }
    }

    /**
     * {@code PUT /api/admin/users/{userId}} {@code {"tokensPerDay": …, "costPerDay": …, "costPerMonth": …}}: the user's
     * own budgets (a user of a token or of a JWT alike); null or absent: the setting's.
     */
    @jakarta.ws.rs.PUT
    @Path("{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response setBudget(@PathParam("userId") String userId, String body) {
        var invalid = ApiError.invalidId("userId", userId);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        JsonNode request;
        try {
            request = ApiJson.MAPPER.readTree(body == null || body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", ApiError.notJson(e));
        }
        Object limits = budget(request == null ? ApiJson.MAPPER.createObjectNode() : request);
        if (limits instanceof Response refused) {
            return refused;
        }
        ai.lango.usage.Budgets.Limits set = ((Optional<?>) limits).map(l -> (ai.lango.usage.Budgets.Limits) l)
                .orElse(ai.lango.usage.Budgets.Limits.DEFAULTS);
        budgets.set(userId, set);
        ObjectNode answer = ApiJson.MAPPER.createObjectNode().put("userId", userId);
        putBudget(answer, set);
        return ApiJson.ok(answer);
    }

    /** {@code {"userId": "ann", "admin": false}} → 201 {@code {"userId": "ann", "admin": false, "token": "lango_…"}}; again for a new token. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response issue(String body) {
        if (!credentials.required()) {
            return ApiError.of(Response.Status.CONFLICT, "authentication_off",
                    "this server authenticates nobody (every caller is the operator): set lango.auth.token or lango.auth.jwt.* first");
        }
        JsonNode request;
        try {
            request = ApiJson.MAPPER.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", ApiError.notJson(e));
        }
        String userId = request == null ? "" : request.path("userId").asText("");
        if (Identity.reserved(userId)) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_id", "\"" + userId + "\" holds the operator's sessions");
        }
        var invalid = ApiError.invalidId("userId", userId);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        if (credentials.nameOfJwtUser(userId)) {
            return ApiError.of(Response.Status.CONFLICT, "name_of_jwt_user", "\"" + userId + "\" is the name of a user who"
                    + " signs in with a JWT: a token for it would be another person's key to that user's data (set"
                    + " lango.auth.jwt.link-token-users=true if they are one person)");
        }
        Object limits = budget(request);
        if (limits instanceof Response refused) {
            return refused;
        }
        boolean admin = request.path("admin").asBoolean(false);
        String token = users.issue(userId, admin);
        ((Optional<?>) limits).ifPresent(l -> budgets.set(userId, (ai.lango.usage.Budgets.Limits) l));
        revoked.fire(new TokenRevoked(userId)); // the token it replaces, if any, ends now
        ObjectNode answer = ApiJson.MAPPER.createObjectNode().put("userId", userId).put("admin", admin).put("token", token);
        return Response.status(Response.Status.CREATED).type(MediaType.APPLICATION_JSON).entity(answer.toString()).build();
    }

    @GET
    public Response list() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("users");
        users.list().forEach(u -> putBudget(list.addObject().put("userId", u.userId()).put("admin", u.admin())
                .put("createdAt", u.createdAt().toString()), budgets.own(u.userId())));
        return ApiJson.ok(body);
    }

    /** Revokes the user's token at once (their data stays theirs); 404 for a user without one. */
    @DELETE
    @Path("{userId}")
    public Response revoke(@PathParam("userId") String userId) {
        if (!users.revoke(userId)) {
            return ApiError.of(Response.Status.NOT_FOUND, "not_found", "no user \"" + userId + "\" has a token");
        }
        revoked.fire(new TokenRevoked(userId));
        return Response.noContent().build();
    }
}
