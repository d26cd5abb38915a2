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
        boolean admin = request.path("admin").asBoolean(false);
        String token = users.issue(userId, admin);
        revoked.fire(new TokenRevoked(userId)); // the token it replaces, if any, ends now
        ObjectNode answer = ApiJson.MAPPER.createObjectNode().put("userId", userId).put("admin", admin).put("token", token);
        return Response.status(Response.Status.CREATED).type(MediaType.APPLICATION_JSON).entity(answer.toString()).build();
    }

    @GET
    public Response list() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("users");
        users.list().forEach(u -> list.addObject().put("userId", u.userId()).put("admin", u.admin())
                .put("createdAt", u.createdAt().toString()));
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
