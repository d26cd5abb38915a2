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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** For operators (and the chat page): what the agent knows, application-wide, and deleting an entry. */
@Path("admin/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class KnowledgeResource {

    /** Entries a listing returns at most. */
    static final int LIST_LIMIT = 1000;
    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    KnowledgeStore knowledge;

    @GET
    public Response knowledge() {
        List<KnowledgeEntry> all = knowledge.all(LIST_LIMIT);
        ObjectNode body = JSON.createObjectNode();
        ArrayNode list = body.putArray("knowledge");
        all.forEach(e -> list.add(json(e)));
        body.put("count", all.size());
        return ApiJson.ok(body);
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
