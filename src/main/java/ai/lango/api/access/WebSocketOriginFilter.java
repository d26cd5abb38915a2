package ai.lango.api.access;

import ai.lango.config.LangoSettings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Refuses WebSocket upgrades and MCP requests from pages of other origins (cross-site WebSocket hijacking, DNS rebinding). */
@WebFilter({"/ws", "/mcp"})
public class WebSocketOriginFilter extends HttpFilter {

    @Inject
    LangoSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!new AccessGuard(settings.access()).originAllowed(request.getHeader("Origin"), request.getHeader("Host"))) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            response.setContentType("application/json");
            response.getWriter().write("{\"error\":{\"code\":\"origin_not_allowed\",\"message\":\"requests from "
                    + "this origin are not allowed; see lango.http.allowed-origins\"}}");
            return;
        }
        chain.doFilter(request, response);
    }
}
