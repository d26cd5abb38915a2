package ai.lango.api.chat;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.api.SignInCookie;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.turn.Names;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The chat page's sign-in for the browser: {@code POST api/signin} with the bearer header the page was given sets the
 * {@link SignInCookie}, so ADK's dev UI (which sends no header) works for the person signed in; {@code DELETE}
 * removes it (the page's sign-out). The credential is only ever the one its header presented and the filter
 * accepted; a cookie is never set from a cookie.
 */
@Path("signin")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SignInResource {

    @Inject
    Credentials credentials;

    @POST
    public Response signIn(@Context HttpServletRequest request, @Context HttpHeaders headers) {
        String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        Identity caller = Callers.of(request);
        var body = ApiJson.MAPPER.createObjectNode().put("userId", caller.operator() ? Names.DEFAULT_USER : caller.userId())
                .put("admin", caller.admin());
        if (!credentials.required()) {
            return ApiJson.ok(body.put("cookie", false)); // nobody signs in: every request is the operator's
        }
        String credential = authorization == null ? "" : authorization.substring("Bearer ".length()).trim();
        if (!SignInCookie.fits(credential)) {
            return ApiError.of(Response.Status.BAD_REQUEST, "bad_request",
                    "sign in with the bearer header of a token or a JWT (the cookie is set from it)");
        }
        return Response.fromResponse(ApiJson.ok(body.put("cookie", true)))
                .header(HttpHeaders.SET_COOKIE, SignInCookie.set(credential, path(request), request.isSecure()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    @DELETE
    public Response signOut(@Context HttpServletRequest request) {
        return Response.noContent().header(HttpHeaders.SET_COOKIE, SignInCookie.cleared(path(request), request.isSecure()))
                .build();
    }

    /** The application's path: the cookie goes with its pages, /api and /dev-ui alike. */
    private static String path(HttpServletRequest request) {
        return request.getContextPath().isEmpty() ? "/" : request.getContextPath() + "/";
    }
}
