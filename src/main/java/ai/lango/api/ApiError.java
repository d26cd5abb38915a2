package ai.lango.api;

import ai.lango.config.Ids;
import ai.lango.config.Keys;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Errors as docs/contract.md has them: {"error": {"code": "…", "message": "…"}}, never a stack trace. */
public final class ApiError {

    /** What a caller without a valid credential is told, by JAX-RS and by the servlets alike. */
    public static final String UNAUTHORIZED = "this server requires \"Authorization: Bearer <credential>\": the operator's "
            + Keys.AUTH_TOKEN + ", a user's API token or a JWT of the configured identity provider";

    private ApiError() {
    }

    public static Response of(Response.Status status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body(code, message)).build();
    }

    /** The error with a Retry-After header in whole seconds (at least 1) when there is a wait to name. */
    public static Response of(Response.Status status, String code, String message, java.util.Optional<java.time.Duration> retryAfter) {
        Response.ResponseBuilder response = Response.fromResponse(of(status, code, message));
        retryAfter.ifPresent(wait -> response.header("Retry-After", Math.max(1, wait.toSeconds())));
        return response.build();
    }

    /** 400 invalid_id when {@code id} breaks the id rule ({@link Ids}), else empty. */
    public static java.util.Optional<Response> invalidId(String what, String id) {
        return Ids.problem(what, id).map(problem -> of(Response.Status.BAD_REQUEST, "invalid_id", problem));
    }

    /** 400 for an id that cannot even have been stored (empty or longer than the column), else empty. */
    public static java.util.Optional<Response> unstorableId(String what, String id, ai.lango.config.LangoSettings.DbKind database) {
        return Ids.storable(id, database) ? java.util.Optional.empty() : invalidId(what, id);
    }

    /** Why a body is not JSON, with the place when the parser knows it (a constraint error has none). */
    public static String notJson(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return "the body is not valid JSON: " + e.getOriginalMessage()
                + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr());
    }

    public static String body(String code, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("error").put("code", code).put("message", message);
        return body.toString();
    }
}
