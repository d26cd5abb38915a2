package ai.lango.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The one JSON mapper of the edges: thread-safe once configured, so shared. */
final class ApiJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private ApiJson() {
    }

    /** 200 with a JSON body. */
    static Response ok(JsonNode body) {
        return Response.ok(body.toString(), MediaType.APPLICATION_JSON).build();
    }
}
