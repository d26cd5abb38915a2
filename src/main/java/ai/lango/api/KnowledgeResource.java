package ai.lango.api;

import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
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

/** For operators (and the chat page): what the agent knows, application-wide, and deleting an entry. */
@Path("admin/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class KnowledgeResource {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    KnowledgeStore knowledge;

    /** A page of the entries, by key ({@code ?offset=&limit=}, at most {@value Paging#MAX_LIMIT}). */
    @GET
    public Response knowledge(@QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(offset, limit);
        List<KnowledgeEntry> page = knowledge.all(paging.offset(), paging.limit() + 1);
        return ApiJson.ok(ApiJson.page("knowledge", page.stream().map(KnowledgeResource::json).toList(), paging));
    }

    @GET
    @Path("{key}")
    public Response entry(@PathParam("key") String key) {
        return knowledge.get(key).map(e -> ApiJson.ok(json(e)))
                .orElseGet(() -> ApiError.of(Response.Status.NOT_FOUND, "knowledge_not_found", "no knowledge \"" + key + "\""));
    }

    @DELETE
    @Path("{key}")
    public Response deleteEntry(@PathParam("key") String key) {
        return knowledge.delete(key) ? Response.noContent().build()
                : ApiError.of(Response.Status.NOT_FOUND, "knowledge_not_found", "no knowledge \"" + key + "\"");
    }

    private static ObjectNode json(KnowledgeEntry e) {
        ObjectNode node = JSON.createObjectNode().put("key", e.key()).put("category", e.category())
                .put("content", e.content()).put("source", e.source()).put("useCount", e.useCount())
                .put("createdAt", e.createdAt().toString()).put("updatedAt", e.updatedAt().toString());
        ArrayNode tags = node.putArray("tags");
        e.tags().forEach(tags::add);
        return node;
    }
}
