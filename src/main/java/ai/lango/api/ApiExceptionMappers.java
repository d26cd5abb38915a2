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

    /**
     * A request body that ended before its length (the client went away mid-upload): not the server's
     * failure, so no error and no stack trace (RESTEasy's own report of it was some 60 lines), only a
     * FINE line; a 400 in case the client is still there to read it. Liberty notes the read it failed
     * at the request's end in one line of its own (FFDC1015I).
     */
    @Provider
    public static class ClientGone implements ExceptionMapper<java.io.IOException> {

        @Override
        public Response toResponse(java.io.IOException e) {
            LOG.fine(() -> "a request's body ended early (the client went away): " + e.getClass().getSimpleName());
            return ApiError.of(Response.Status.BAD_REQUEST, "body_incomplete", "the request body ended before its length");
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
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof java.io.IOException gone) {
                    return new ClientGone().toResponse(gone);
                }
            }
            LOG.log(Level.WARNING, "request failed", e);
            return ApiError.of(Response.Status.INTERNAL_SERVER_ERROR, "internal_error",
                    "the request failed: " + e.getClass().getSimpleName());
        }
    }
}
