package ai.lango.api.access;

import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;

/**
 * Methods the edges do not serve get a JSON 405, never a container's HTML page or a file: the
 * static files (the chat page, its scripts) are read with GET, HEAD and OPTIONS only (a POST or
 * DELETE of a page was answered with the page), and TRACE is served nowhere. Servlets and /api's
 * resources answer for their own methods.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class MethodFilter extends HttpFilter {

    private static final Set<String> READING = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String method = request.getMethod();
        // A file of the WAR (the welcome page for "/"): servlets and resources answer for their own methods.
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean file = !path.startsWith("/api/") && (path.isEmpty() || path.equals("/")
                || !path.endsWith("/") && request.getServletContext().getResource(path) != null);
        if (method.equals("TRACE") || method.equals("TRACK") || file && !READING.contains(method)) {
            if (file) {
                response.setHeader("Allow", "GET, HEAD, OPTIONS");
            }
            ServletJson.write(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, ApiError.body("method_not_allowed",
                    method + " is not served here"), true);
            return;
        }
        chain.doFilter(request, response);
    }
}
