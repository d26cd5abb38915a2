package ai.lango.api.adk;

import ai.lango.adk.AdkSessions;
import ai.lango.turns.Turns;
import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.turns.TurnAdmission;
import ai.lango.config.LangoSettings;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.session.InvalidSessionKeyException;
import ai.lango.session.SessionExistsException;
import ai.lango.session.SessionStore;
import ai.lango.turn.Names;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.Optional;

/** ADK's session routes: list, create (with or without an id), read, delete. Reading never creates. */
@Path("apps/{app}/users/{user}/sessions")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SessionsResource {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    @Inject
    AdkSessions sessions;

    @Inject
    LangoSettings settings;

    @Inject
    Quotas quotas;

    @Inject
    SessionStore store;

    @Inject
    TurnAdmission admissions;

    @Inject
    Turns turns;

    @GET
    public Response list(@PathParam("app") String app, @PathParam("user") String user) {
        if (!Names.APP.equals(app)) {
            return unknownApp(app);
        }
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.database().kind());
        if (invalid.isPresent()) {
            return invalid.get();
        }
        return json(sessions.list(user));
    }

    @POST
    public Response create(@PathParam("app") String app, @PathParam("user") String user, String body,
                           @Context HttpServletRequest request) {
        return create(app, user, null, body, request);
    }

    @POST
    @Path("{id}")
    public Response create(@PathParam("app") String app, @PathParam("user") String user,
                           @PathParam("id") String id, String body, @Context HttpServletRequest request) {
        if (!Names.APP.equals(app)) {
            return unknownApp(app);
        }
        // What is stored follows the id rule; an absent id is generated (a UUID, which does).
        Optional<Response> invalid = ApiError.invalidId("user", user)
                .or(() -> id == null ? Optional.empty() : ApiError.invalidId("session id", id));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        Map<String, Object> state;
        try {
            JsonNode parsed = body == null || body.isBlank() ? null : ApiJson.MAPPER.readTree(body);
            JsonNode stateNode = parsed == null || parsed.isNull() ? null : parsed.get("state");
            state = stateNode == null || stateNode.isNull() ? Map.of() : ApiJson.MAPPER.convertValue(stateNode, MAP);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", "the body must be {\"state\":{…}} or empty");
        }
        Identity caller = Callers.of(request);
        Optional<Response> shared = Callers.refusedAppState(caller, state);
        if (shared.isPresent()) {
            return shared.get();
        }
        try {
            if (!quotas.mayStateBe(caller, ApiJson.MAPPER.writeValueAsBytes(state).length)) {
                return ApiError.of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "state_too_large", "a session's state may be at most "
                        + quotas.limits().sessionStateMax() + " bytes as JSON (lango.quota.session-state-max)");
            }
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", "the body must be {\"state\":{…}} or empty");
        }
        if (!quotas.maySessionBeAdded(caller, store.countOf(user))) {
            return ApiError.of(Response.Status.TOO_MANY_REQUESTS, "quota_exceeded", admissions.sessionsMessage());
        }
        try {
            return json(sessions.create(user, id, state));
        } catch (SessionExistsException e) {
            // ADK's answer (400). Ids are the user's own, so only this user's session can be in the way.
            return ApiError.of(Response.Status.BAD_REQUEST, "session_exists", "you already have a session \"" + id + "\"");
        } catch (InvalidSessionKeyException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_session_id", e.getMessage());
        }
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("app") String app, @PathParam("user") String user, @PathParam("id") String id) {
        if (!Names.APP.equals(app)) {
            return unknownApp(app);
        }
        // Reading takes any id that could have been stored, so sessions stored before the id rule stay readable.
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.database().kind()).or(() -> ApiError.unstorableId("session id", id, settings.database().kind()));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        try {
            return sessions.read(user, id).map(SessionsResource::json).orElseGet(() ->
                    ApiError.of(Response.Status.NOT_FOUND, "session_not_found", "no session \"" + id + "\" for user \"" + user + "\""));
        } catch (InvalidSessionKeyException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_session_id", e.getMessage());
        }
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("app") String app, @PathParam("user") String user, @PathParam("id") String id) {
        if (!Names.APP.equals(app)) {
            return unknownApp(app);
        }
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.database().kind()).or(() -> ApiError.unstorableId("session id", id, settings.database().kind()));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        sessions.delete(user, id);
        return Response.noContent().build();
    }

    /** The agent tree as Graphviz DOT, as ADK's server draws it for an event. */
    @GET
    @Path("{id}/events/{event}/graph")
    public String eventGraph(@PathParam("app") String app, @PathParam("user") String user, @PathParam("id") String id,
                             @PathParam("event") String event) {
        return ApiJson.MAPPER.createObjectNode().put("dotSrc", AgentGraphs.dot(turns.agents())).toString();
    }

    static Response unknownApp(String app) {
        return ApiError.of(Response.Status.NOT_FOUND, "unknown_app", "no app \"" + app + "\"; this server runs \""
                + Names.APP + "\"");
    }

    /** ADK's JSON as the adk package wrote it, so field names and shapes match ADK's API server. */
    private static Response json(String adkJson) {
        return Response.ok(adkJson, MediaType.APPLICATION_JSON).build();
    }
}
