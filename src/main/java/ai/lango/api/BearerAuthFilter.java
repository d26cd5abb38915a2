package ai.lango.api;

import ai.lango.config.LangoSettings;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/** With lango.auth.token set, every /api call needs "Authorization: Bearer <token>". */
@Provider
public class BearerAuthFilter implements ContainerRequestFilter {

    @Inject
    LangoSettings settings;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!new AccessGuard(settings.access()).authorizationMatches(request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            request.abortWith(Response.fromResponse(ApiError.of(Response.Status.UNAUTHORIZED, "unauthorized", ApiError.UNAUTHORIZED))
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build());
        }
    }
}
