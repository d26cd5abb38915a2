package ai.lango.api;

import ai.lango.learning.Learning;
import ai.lango.learning.LearningStore;
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
import java.util.List;

/** For operators: what the agent has learned from errors, application-wide, and deleting a learning. */
@Path("admin/learnings")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class LearningsResource {

    /** Learnings a listing returns at most. */
    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    LearningStore learnings;

    /** A page of the learnings, most confident first ({@code ?offset=&limit=}, at most {@value Paging#MAX_LIMIT}). */
    @GET
    public Response learnings(@QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(offset, limit);
        List<Learning> page = learnings.all(paging.offset(), paging.limit() + 1);
        return ApiJson.ok(ApiJson.page("learnings", page.stream().map(LearningsResource::json).toList(), paging));
    }

    @DELETE
    @Path("{id}")
    public Response deleteLearning(@PathParam("id") String id) {
        long number;
        try {
            number = Long.parseLong(id);
        } catch (NumberFormatException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_id", "a learning's id is a number, not \"" + id + "\"");
        }
        return learnings.delete(number) ? Response.noContent().build()
                : ApiError.of(Response.Status.NOT_FOUND, "learning_not_found", "no learning " + number);
    }

    private static ObjectNode json(Learning l) {
        return JSON.createObjectNode().put("id", l.id()).put("trigger", l.trigger()).put("errorPattern", l.errorPattern())
                .put("diagnosis", l.diagnosis()).put("fix", l.fix()).put("category", l.category())
                .put("origin", l.origin().name().toLowerCase(java.util.Locale.ROOT))
                .put("confidence", l.confidence()).put("occurrences", l.occurrences()).put("successes", l.successes())
                .put("failures", l.failures()).put("createdAt", l.createdAt().toString())
                .put("updatedAt", l.updatedAt().toString());
    }
}
