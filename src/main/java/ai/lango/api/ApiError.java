package ai.lango.api;

import ai.lango.config.SettingsParser;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Errors as CONTRACT.md has them: {"error": {"code": "…", "message": "…"}}, never a stack trace. */
final class ApiError {

    /** What a caller without the configured token is told, by JAX-RS and by the servlets alike. */
    static final String UNAUTHORIZED = "this server requires \"Authorization: Bearer <" + SettingsParser.AUTH_TOKEN + ">\"";

    private ApiError() {
    }

    static Response of(Response.Status status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body(code, message)).build();
    }

    static String body(String code, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("error").put("code", code).put("message", message);
        return body.toString();
    }
}
