package ai.lango.api;

import ai.lango.masking.MaskedLogs;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every /api error is JSON {"error":{…}}: never a stack trace, never an HTML page. */
public final class ApiExceptionMappers {

    private static final Logger LOG = MaskedLogs.of(ApiExceptionMappers.class);

    private ApiExceptionMappers() {
    }

    /** 404 for unknown paths, 405, 415 and the like, with their status kept. */
    @Provider
    public static class WebErrors implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            Response.StatusType status = e.getResponse().getStatusInfo();
            String code = status.getReasonPhrase().toLowerCase(Locale.ROOT).replace(' ', '_');
            return ApiError.of(Response.Status.fromStatusCode(status.getStatusCode()) == null
                    ? Response.Status.BAD_REQUEST : Response.Status.fromStatusCode(status.getStatusCode()),
                    code, status.getStatusCode() == 404 ? "no such endpoint" : status.getReasonPhrase());
        }
    }

    /** Anything unexpected: logged here, a plain 500 for the caller. */
    @Provider
    public static class Unexpected implements ExceptionMapper<RuntimeException> {
        @Override
        public Response toResponse(RuntimeException e) {
            if (e instanceof WebApplicationException web) {
                return new WebErrors().toResponse(web);
            }
            LOG.log(Level.WARNING, "request failed", e);
            return ApiError.of(Response.Status.INTERNAL_SERVER_ERROR, "internal_error",
                    "the request failed: " + e.getClass().getSimpleName());
        }
    }
}
