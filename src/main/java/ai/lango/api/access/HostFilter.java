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

/**
 * DNS rebinding: a page on evil.example whose name is made to resolve to 127.0.0.1 reaches this
 * server with "Host: evil.example", and as far as the browser knows it is talking to its own origin.
 * Every request to the application (pages, /api, /metrics, the /ws upgrade) must name this server
 * in its Host header: a loopback name, the bound interface, or a name in lango.http.allowed-hosts.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class HostFilter extends HttpFilter {

    @Inject
    LangoSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!new AccessGuard(settings.access(), settings.http().host()).hostAllowed(request.getHeader("Host"))) {
            ServletJson.write(response, HttpServletResponse.SC_FORBIDDEN, ApiError.body("host_not_allowed",
                    "this server does not answer to that Host name; add it to " + Keys.ALLOWED_HOSTS),
                    !request.getMethod().equals("HEAD"));
            return;
        }
        chain.doFilter(request, response);
    }
}
