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
 * <p>The chat socket's upgrade answer (101 on /ws) is no page and none of these headers means anything on it, but
 * Liberty keeps the upgrade's response headers for as long as the socket is open (4 of an idle socket's 15 header
 * elements, docs/benchmarks.md, "Memory"), so they are left off there. Any other request that asks for an upgrade
 * gets them (a cache in front must never keep a page without them).
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class FramingFilter extends HttpFilter {

    static final String POLICY = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";
    private static final String CHAT_SOCKET = "/ws";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(CHAT_SOCKET.equals(request.getRequestURI().substring(request.getContextPath().length()))
                && "websocket".equalsIgnoreCase(request.getHeader("Upgrade")))) {
            response.setHeader("Content-Security-Policy", POLICY);
            response.setHeader("X-Frame-Options", "DENY");
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
        }
        chain.doFilter(request, response);
    }
}
