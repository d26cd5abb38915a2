package ai.lango.api;

import ai.lango.adk.AgentService;
import ai.lango.adk.JpaSessionService;
import ai.lango.config.LangoSettings;
import ai.lango.session.InvalidSessionKeyException;
import ai.lango.session.SessionExistsException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.sessions.Session;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** ADK's session routes: list, create (with or without an id), read, delete. Reading never creates. */
@Path("apps/{app}/users/{user}/sessions")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SessionsResource {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    @Inject
    JpaSessionService sessions;

    @Inject
    LangoSettings settings;

    @GET
    public Response list(@PathParam("app") String app, @PathParam("user") String user) {
        if (!AgentService.APP_NAME.equals(app)) {
            return unknownApp(app);
        }
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.dbKind());
        if (invalid.isPresent()) {
            return invalid.get();
        }
        List<Session> list = sessions.listSessions(app, user).blockingGet().sessions();
        return json(list);
    }

    @POST
    public Response create(@PathParam("app") String app, @PathParam("user") String user, String body) {
        return create(app, user, null, body);
    }

    @POST
    @Path("{id}")
    public Response create(@PathParam("app") String app, @PathParam("user") String user,
                           @PathParam("id") String id, String body) {
        if (!AgentService.APP_NAME.equals(app)) {
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
            JsonNode parsed = body == null || body.isBlank() ? null : JsonBaseModel.getMapper().readTree(body);
            JsonNode stateNode = parsed == null || parsed.isNull() ? null : parsed.get("state");
            state = stateNode == null || stateNode.isNull() ? Map.of() : JsonBaseModel.getMapper().convertValue(stateNode, MAP);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", "the body must be {\"state\":{…}} or empty");
        }
        try {
            return json(sessions.createSession(app, user, new ConcurrentHashMap<>(state), id).blockingGet());
        } catch (SessionExistsException e) {
            // Session ids are shared by all users: the same answer whoever holds the id, naming no one.
            return ApiError.of(Response.Status.BAD_REQUEST, "session_id_unavailable", "the session id \"" + id
                    + "\" is not available; choose another, or create the session without an id to get a new one");
        } catch (InvalidSessionKeyException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_session_id", e.getMessage());
        }
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("app") String app, @PathParam("user") String user, @PathParam("id") String id) {
        if (!AgentService.APP_NAME.equals(app)) {
            return unknownApp(app);
        }
        // Reading takes any id that could have been stored, so sessions stored before the id rule stay readable.
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.dbKind()).or(() -> ApiError.unstorableId("session id", id, settings.dbKind()));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        try {
            return sessions.readSession(app, user, id).map(SessionsResource::json).orElseGet(() ->
                    ApiError.of(Response.Status.NOT_FOUND, "session_not_found", "no session \"" + id + "\" for user \"" + user + "\""));
        } catch (InvalidSessionKeyException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_session_id", e.getMessage());
        }
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("app") String app, @PathParam("user") String user, @PathParam("id") String id) {
        if (!AgentService.APP_NAME.equals(app)) {
            return unknownApp(app);
        }
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.dbKind()).or(() -> ApiError.unstorableId("session id", id, settings.dbKind()));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        sessions.deleteSession(app, user, id).blockingAwait();
        return Response.noContent().build();
    }

    static Response unknownApp(String app) {
        return ApiError.of(Response.Status.NOT_FOUND, "unknown_app", "no app \"" + app + "\"; this server runs \""
                + AgentService.APP_NAME + "\"");
    }

    /** ADK's own mapper, so field names and shapes match ADK's API server. */
    private static Response json(Object value) {
        try {
            return Response.ok(JsonBaseModel.getMapper().writeValueAsString(value), MediaType.APPLICATION_JSON).build();
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.INTERNAL_SERVER_ERROR, "serialisation_failed", e.getOriginalMessage());
        }
    }
}
