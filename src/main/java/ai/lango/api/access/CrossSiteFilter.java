package ai.lango.api.access;

import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;

/**
 * Only this server's pages (and the origins lango.http.allowed-origins names) drive it. A page of
 * another site can make a browser send a POST with a {@code text/plain} or form body without asking
 * first (no CORS preflight), carrying the browser's cookies — with authentication off, that is a turn
 * as the operator. So every request that changes state ({@code POST}, {@code PUT}, {@code PATCH},
 * {@code DELETE}), and every /ws upgrade and /mcp request whatever its method (cross-site WebSocket
 * hijacking, DNS rebinding), is refused when its {@code Origin} is another site's — or, without an
 * Origin, when the browser's {@code Sec-Fetch-Site} says it came from another site. A request with
 * neither header is not a browser's (curl, an SDK) and passes.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class CrossSiteFilter extends HttpFilter {

    private static final Set<String> CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> ANY_METHOD = Set.of("/ws", "/mcp");

    @Inject
    LangoSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean checked = CHANGING.contains(request.getMethod()) || ANY_METHOD.contains(path);
        if (checked && !new AccessGuard(settings.access()).siteAllowed(request.getHeader("Origin"),
                request.getHeader("Sec-Fetch-Site"), request.getHeader("Host"))) {
            ServletJson.write(response, HttpServletResponse.SC_FORBIDDEN, ApiError.body("origin_not_allowed",
                    "requests from pages of other sites are not allowed; add the page's origin to " + Keys.ALLOWED_ORIGINS),
                    !request.getMethod().equals("HEAD"));
            return;
        }
        chain.doFilter(request, response);
    }
}
