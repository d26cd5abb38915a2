package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Paging;
import ai.lango.learning.Learning;
import ai.lango.learning.LearningStore;
import ai.lango.security.Ownership;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;

/**
 * For operators: what the agent has learned from errors, every user's and the shared learnings;
 * deleting a learning, and sharing a user's with every user.
 */
@Path("admin/learnings")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class LearningsResource {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    LearningStore learnings;

    /**
     * A page of the learnings, most confident first ({@code ?offset=&limit=}, at most {@value Paging#MAX_LIMIT});
     * only a user's with {@code ?owner=}, only the shared ones with {@code ?shared=true}.
     */
    @GET
    public Response learnings(@QueryParam("owner") String owner, @QueryParam("shared") boolean shared,
                              @QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(offset, limit);
        List<String> owners = shared ? List.of(Ownership.SHARED) : owner == null || owner.isBlank() ? null : List.of(owner);
        List<Learning> page = learnings.all(owners, paging.offset(), paging.limit() + 1);
        return ApiJson.ok(ApiJson.page("learnings", page.stream().map(LearningsResource::json).toList(), paging));
    }

    @DELETE
    @Path("{id}")
    public Response deleteLearning(@PathParam("id") String id) {
        Optional<Long> number = number(id);
        if (number.isEmpty()) {
            return invalidId(id);
        }
        return learnings.delete(number.get()) ? Response.noContent().build() : notFound(number.get());
    }

    /** Makes the user's learning shared by every user (merged into a shared one with its trigger and pattern); the shared learning. */
    @POST
    @Path("{id}/share")
    public Response share(@PathParam("id") String id) {
        Optional<Long> number = number(id);
        if (number.isEmpty()) {
            return invalidId(id);
        }
        return learnings.share(number.get()).map(l -> ApiJson.ok(json(l))).orElseGet(() -> notFound(number.get()));
    }

    private static Optional<Long> number(String id) {
        try {
            return Optional.of(Long.parseLong(id));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Response invalidId(String id) {
        return ApiError.of(Response.Status.BAD_REQUEST, "invalid_id", "a learning's id is a number, not \"" + id + "\"");
    }

    private static Response notFound(long id) {
        return ApiError.of(Response.Status.NOT_FOUND, "learning_not_found", "no learning " + id);
    }

    private static ObjectNode json(Learning l) {
        return JSON.createObjectNode().put("id", l.id()).put("owner", l.shared() ? null : l.owner()).put("shared", l.shared()).put("trigger", l.trigger()).put("errorPattern", l.errorPattern())
                .put("diagnosis", l.diagnosis()).put("fix", l.fix()).put("category", l.category())
                .put("origin", l.origin().name().toLowerCase(java.util.Locale.ROOT))
                .put("confidence", l.confidence()).put("occurrences", l.occurrences()).put("successes", l.successes())
                .put("failures", l.failures()).put("createdAt", l.createdAt().toString())
                .put("updatedAt", l.updatedAt().toString());
    }
}
