package ai.lango.api.access;

import ai.lango.api.ApiError;
import ai.lango.api.Callers;
import ai.lango.api.SignInCookie;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Who calls /api, from their credential (see {@link Credentials}) — the bearer header, else the page's
 * {@link SignInCookie}: 401 without one when one is
 * required; the admin API is for administrators (403); ADK's user routes
 * ({@code apps/{app}/users/{user}/…}) are the named user's own (403 for anyone else who does not
 * administer). The identity is kept on the request for the resources ({@link Callers}). Only
 * {@code GET me} (whether the caller is signed in is what it says) and {@code DELETE signin} (signing out)
 * answer without one.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class BearerAuthFilter implements ContainerRequestFilter {

    @Inject
    Credentials credentials;

    @Inject
    Quotas quotas;

    @Override
    public void filter(ContainerRequestContext request) {
        Optional<Identity> caller = SignInCookie.caller(credentials, request.getHeaderString(HttpHeaders.AUTHORIZATION),
                SignInCookie.in(request.getCookies()));
        String path = request.getUriInfo().getPath().replaceAll("^/|/$", "");
        if (caller.isEmpty() && "me".equals(path) && "GET".equals(request.getMethod())) {
            return; // ai.lango.api.chat.MeResource answers that the caller is not signed in
        }
        if (caller.isEmpty() && "signin".equals(path) && "DELETE".equals(request.getMethod())) {
            return; // signing out removes the cookie, even one whose credential no longer counts
        }
        if (caller.isEmpty()) {
            request.abortWith(Response.fromResponse(ApiError.of(Response.Status.UNAUTHORIZED, "unauthorized", ApiError.UNAUTHORIZED))
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build());
            return;
        }
        Identity identity = caller.get();
        request.setProperty(Callers.PROPERTY, identity);
        Optional<Duration> overRate = quotas.request(identity);
        if (overRate.isPresent()) {
            request.abortWith(ApiError.of(Response.Status.TOO_MANY_REQUESTS, "rate_limited",
                    "too many requests (lango.quota.requests-per-minute): try again later", overRate));
            return;
        }
        List<String> segments = request.getUriInfo().getPathSegments().stream().map(s -> s.getPath()).toList();
        if (!segments.isEmpty() && segments.get(0).equals("admin") && !identity.admin()) {
            request.abortWith(ApiError.of(Response.Status.FORBIDDEN, "forbidden", "the admin API is for administrators"));
            return;
        }
        if (segments.size() >= 4 && segments.get(0).equals("apps") && segments.get(2).equals("users")) {
            Callers.refusedUnlessActsAs(identity, segments.get(3)).ifPresent(request::abortWith);
        }
    }
}
