package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Paging;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.session.StoredSession;
import ai.lango.session.ToolCall;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: every user's stored sessions, with their messages and tool calls. */
@Path("admin/sessions")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class AdminSessionsResource {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    SessionStore store;

    @Inject
    OperatorSessions operators;


    /**
     * A page of the stored sessions; with {@code ?key=} the one session stored under that key (and
     * {@code ?userId=} when several users have one). The query form reaches every stored key, also
     * one that cannot stand in a URL path ("a/b", "..", control characters) because it was stored
     * before ids were validated.
     */
    @GET
    public Response sessions(@QueryParam("page") String page, @QueryParam("size") String size,
                             @QueryParam("key") String key, @QueryParam("userId") String userId) {
        if (key != null) {
            return session(key, userId);
        }
        Paging paging = Paging.ofPage(page, size);
        SessionStore.Page result = store.page(paging.offset(), paging.limit());
        ObjectNode body = JSON.createObjectNode().put("page", paging.offset() / paging.limit()).put("size", paging.limit())
                .put("total", result.total());
        ArrayNode list = body.putArray("sessions");
        result.sessions().forEach(s -> list.add(summary(s)));
        return ApiJson.ok(body);
    }

    @GET
    @Path("{key}")
    public Response session(@PathParam("key") String key, @QueryParam("userId") String userId) {
        return operators.answer(key, userId, ref -> store.find(ref).map(found -> withMessages(found, ref))
                .orElseGet(() -> OperatorSessions.notFound(key)));
    }

    private Response withMessages(StoredSession session, SessionRef ref) {
        ObjectNode body = summary(session);
        ArrayNode messages = body.putArray("messages");
        for (Message message : store.messages(ref)) {
            ObjectNode m = messages.addObject().put("role", message.role()).put("content", message.content())
                    .put("author", message.author()).put("timestamp", message.timestamp().toString());
            ArrayNode calls = m.putArray("toolCalls");
            for (ToolCall call : message.toolCalls()) {
                calls.addObject().put("id", call.id()).put("name", call.name()).put("input", call.input())
                        .put("output", call.output());
            }
        }
        return ApiJson.ok(body);
    }

    /** Deletes the session stored under {@code ?key=}, whatever characters the key has. */
    @DELETE
    public Response deleteByQuery(@QueryParam("key") String key, @QueryParam("userId") String userId) {
        if (key == null) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_request",
                    "name the session: DELETE /api/admin/sessions/{key} or /api/admin/sessions?key=…");
        }
        return delete(key, userId);
    }

    @DELETE
    @Path("{key}")
    public Response delete(@PathParam("key") String key, @QueryParam("userId") String userId) {
        return operators.answer(key, userId, ref -> {
            store.delete(ref);
            return Response.noContent().build();
        });
    }

    private static ObjectNode summary(StoredSession session) {
        // JSON escapes any character a key holds, so even a key stored before ids were validated shows as it is.
        return JSON.createObjectNode().put("key", session.key()).put("appName", session.appName())
                .put("userId", session.userId()).put("createdAt", session.createdAt().toString())
                .put("updatedAt", session.updatedAt().toString());
    }
}
