package ai.lango.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The one JSON mapper of the edges: thread-safe once configured, so shared. */
public final class ApiJson {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private ApiJson() {
    }

    /**
     * A page of a list: {@code {"<name>": [...], "count", "offset", "limit", "more"}}, where {@code rows}
     * holds up to one row more than the limit (that row only says there are more).
     */
    public static com.fasterxml.jackson.databind.node.ObjectNode page(String name, java.util.List<? extends JsonNode> rows, Paging paging) {
        com.fasterxml.jackson.databind.node.ObjectNode body = MAPPER.createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray(name);
        rows.stream().limit(paging.limit()).forEach(list::add);
        return body.put("count", list.size()).put("offset", paging.offset()).put("limit", paging.limit())
                .put("more", rows.size() > paging.limit());
    }

    /** 200 with a JSON body. */
    public static Response ok(JsonNode body) {
        return Response.ok(body.toString(), MediaType.APPLICATION_JSON).build();
    }
}
