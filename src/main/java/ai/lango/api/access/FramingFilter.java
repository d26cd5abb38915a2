package ai.lango.api.access;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Clickjacking: a page of another site that frames the chat page could lay its own buttons over
 * Approve and get one click to run a pending command. No response of the application may be framed
 * by anyone ({@code frame-ancestors 'none'}, and {@code X-Frame-Options: DENY} for browsers that
 * predate it); types are not sniffed, and no page's address goes out as a referrer.
 *
 * <p>A WebSocket upgrade's answer (101) is no page and none of these headers means anything on it, but
 * Liberty keeps the upgrade's response headers for as long as the socket is open: 18,000 idle /ws sockets
 * held them at about 0.5 KB of heap each (docs/benchmarks.md, "Idle sockets"), so they are left off there.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class FramingFilter extends HttpFilter {

    static final String POLICY = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            response.setHeader("Content-Security-Policy", POLICY);
            response.setHeader("X-Frame-Options", "DENY");
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
        }
        chain.doFilter(request, response);
    }
}
