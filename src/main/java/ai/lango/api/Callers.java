package ai.lango.api;

import ai.lango.api.access.BearerAuthFilter;
import ai.lango.security.Identity;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.Optional;

/**
 * The identity a request was authenticated as (by {@link BearerAuthFilter}), and the rules every
 * resource applies with it: a user acts on their own data, an administrator on anyone's; only an
 * administrator writes app: state.
 */
public final class Callers {

    /** The request property that holds the caller's {@link Identity}. */
    public static final String PROPERTY = "ai.lango.identity";

    private Callers() {
    }

    public static Identity of(HttpServletRequest request) {
        return request.getAttribute(PROPERTY) instanceof Identity identity ? identity : Identity.OPERATOR;
    }

    /** Whether a credential was accepted for this request (it is not when none is needed, nor when it was refused). */
    public static boolean authenticated(HttpServletRequest request) {
        return request.getAttribute(PROPERTY) instanceof Identity;
    }

    public static Identity of(ContainerRequestContext request) {
        return request.getProperty(PROPERTY) instanceof Identity identity ? identity : Identity.OPERATOR;
    }

    /** 403 unless {@code caller} may act on {@code user}'s data. */
    public static Optional<Response> refusedUnlessActsAs(Identity caller, String user) {
        return caller.mayActAs(user) ? Optional.empty() : Optional.of(ApiError.of(Response.Status.FORBIDDEN, "forbidden",
                "you may act on your own sessions only (you are \"" + caller.userId() + "\")"));
    }

    /**
     * 403 unless {@code caller} answers {@code user}'s requests for approval: a request is answered by
     * its own user alone, on every edge — an administrator acting in another user's session does not
     * decide that user's dangerous calls. The operator answers its own users' ("user", "a2a"), and
     * everyone's while nobody authenticates ({@code authenticates} false).
     */
    public static Optional<Response> refusedUnlessAnswers(Identity caller, boolean authenticates, String user) {
        return caller.answersFor(user, authenticates) ? Optional.empty() : Optional.of(ApiError.of(Response.Status.FORBIDDEN,
                "forbidden", "a request for approval is answered by its own user only (\"" + user + "\"; you are \""
                        + caller.userId() + "\")"));
    }

    /** 403 when a state change of a caller who does not administer names shared app: state. */
    public static Optional<Response> refusedAppState(Identity caller, Map<String, ?> state) {
        if (caller.admin() || state == null || state.keySet().stream().noneMatch(k -> k.startsWith("app:"))) {
            return Optional.empty();
        }
        return Optional.of(ApiError.of(Response.Status.FORBIDDEN, "forbidden",
                "app: state is shared by every user: only an administrator writes it"));
    }
}
