package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Paging;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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

/**
 * For operators: what the agent knows, every user's and the shared entries; deleting an entry, and
 * sharing a user's entry with every user. An entry is named by its key and, when it is a user's,
 * {@code ?owner=}; without it, the shared entry.
 */
@Path("admin/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class KnowledgeResource {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    KnowledgeStore knowledge;

    /**
     * A page of the entries, by owner and key ({@code ?offset=&limit=}, at most {@value Paging#MAX_LIMIT});
     * only a user's with {@code ?owner=}, only the shared ones with {@code ?shared=true}.
     */
    @GET
    public Response knowledge(@QueryParam("owner") String owner, @QueryParam("shared") boolean shared,
                              @QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(offset, limit);
        List<KnowledgeEntry> page = knowledge.all(shared ? KnowledgeEntry.SHARED : blankAsNull(owner), paging.offset(), paging.limit() + 1);
        return ApiJson.ok(ApiJson.page("knowledge", page.stream().map(KnowledgeResource::json).toList(), paging));
    }

    @GET
    @Path("{key}")
    public Response entry(@PathParam("key") String key, @QueryParam("owner") String owner) {
        return knowledge.get(ownerOrShared(owner), key).map(e -> ApiJson.ok(json(e))).orElseGet(() -> notFound(key, owner));
    }

    @DELETE
    @Path("{key}")
    public Response deleteEntry(@PathParam("key") String key, @QueryParam("owner") String owner) {
        return knowledge.delete(ownerOrShared(owner), key) ? Response.noContent().build() : notFound(key, owner);
    }

    /** Makes the user's entry shared by every user (replacing a shared one under the key); the shared entry. */
    @POST
    @Path("{key}/share")
    public Response share(@PathParam("key") String key, @QueryParam("owner") String owner) {
        if (blankAsNull(owner) == null) {
            return ApiError.of(Response.Status.BAD_REQUEST, "owner_required", "name the user whose entry to share: ?owner=");
        }
        return knowledge.share(owner, key).map(e -> ApiJson.ok(json(e))).orElseGet(() -> notFound(key, owner));
    }

    private static Response notFound(String key, String owner) {
        return ApiError.of(Response.Status.NOT_FOUND, "knowledge_not_found", "no knowledge \"" + key + "\""
                + (blankAsNull(owner) == null ? " shared by every user" : " of user \"" + owner + "\""));
    }

    private static String ownerOrShared(String owner) {
        String given = blankAsNull(owner);
        return given == null ? KnowledgeEntry.SHARED : given;
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static ObjectNode json(KnowledgeEntry e) {
        ObjectNode node = JSON.createObjectNode().put("key", e.key()).put("owner", e.shared() ? null : e.owner())
                .put("shared", e.shared()).put("category", e.category())
                .put("content", e.content()).put("source", e.source()).put("useCount", e.useCount())
                .put("createdAt", e.createdAt().toString()).put("updatedAt", e.updatedAt().toString());
        ArrayNode tags = node.putArray("tags");
        e.tags().forEach(tags::add);
        return node;
    }
}
