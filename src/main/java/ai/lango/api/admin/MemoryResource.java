package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.config.LangoSettings;
import ai.lango.memory.MemoryModel;
import ai.lango.memory.MemoryStore;
import ai.lango.memory.MemoryToolset;
import ai.lango.memory.Observation;
import ai.lango.memory.Reflection;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * For operators (and the chat page): what a session remembers — every observation and reflection,
 * folded ones marked — and the status of its memory; DELETE forgets the memory, never the messages.
 */
@Path("admin/memory/{key}")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class MemoryResource {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    MemoryStore memory;

    @Inject
    MemoryModel model;

    @Inject
    LangoSettings settings;

    @Inject
    OperatorSessions operators;

    /** The session's memory; {@code ?userId=} says whose session when several users have one under {@code key}. */
    @GET
    public Response get(@PathParam("key") String key, @QueryParam("userId") String userId) {
        return operators.answer(key, userId, ref -> memory.status(ref).map(status -> remembered(ref, status))
                .orElseGet(() -> OperatorSessions.notFound(key)));
    }

    private Response remembered(SessionRef ref, MemoryStore.Status status) {
        MemoryStore.Contents contents = memory.all(ref);
        ObjectNode body = JSON.createObjectNode().put("sessionKey", ref.key()).put("userId", ref.userId());
        var observations = body.putArray("observations");
        for (Observation o : contents.observations()) {
            ObjectNode item = JSON.valueToTree(MemoryToolset.json(o));
            observations.add(item.put("foldedInto", o.foldedInto()));
        }
        var reflections = body.putArray("reflections");
        for (Reflection r : contents.reflections()) {
            ObjectNode item = JSON.valueToTree(MemoryToolset.json(r));
            reflections.add(item.put("foldedInto", r.foldedInto()));
        }
        body.putObject("status")
                .put("observationTokens", status.observationTokens())
                .put("reflectionTokens", status.reflectionTokens())
                .put("unobservedTokens", status.unobservedTokens())
                .put("enabled", settings.memory().enabled())
                .put("model", model.name().orElse(null));
        return ApiJson.ok(body);
    }

    @DELETE
    public Response clear(@PathParam("key") String key, @QueryParam("userId") String userId) {
        return operators.answer(key, userId, ref -> {
            memory.clear(ref);
            return Response.noContent().build();
        });
    }
}
