package ai.lango.api.chat;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * A /ws upgrade makes no HTTP session. Liberty's WebSocket handshake asks the request for its HTTP session
 * ({@code getSession()}, which creates one), so every socket held a session of its own — kept as long as the socket
 * is open and for the session timeout after — that nothing of /ws uses (a socket authenticates with its first frame,
 * never with a cookie). Here the handshake sees the request's session only when it already has one.
 */
@WebFilter(urlPatterns = "/ws", asyncSupported = true)
public class NoHttpSession extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public HttpSession getSession() {
                return getSession(false);
            }
        }, response);
    }
}
