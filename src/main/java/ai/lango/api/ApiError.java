package ai.lango.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Errors as CONTRACT.md has them: {"error": {"code": "…", "message": "…"}}, never a stack trace. */
final class ApiError {

    private ApiError() {
    }

    static Response of(Response.Status status, String code, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("error").put("code", code).put("message", message);
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body.toString()).build();
    }
}
