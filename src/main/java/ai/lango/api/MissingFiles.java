package ai.lango.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.MappingMatch;
import java.io.IOException;

/**
 * A request for a file of the chat page that is not there gets its JSON 404 here. Liberty's file
 * servlet answers it by throwing FileNotFoundException, which, thrown through the application's
 * filters, files an FFDC report on disk for every such request: any client could fill the disk.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class MissingFiles extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (("GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod()))
                // The /ws upgrade is answered by Liberty's WebSocket filter. Another upgrade (Java's HttpClient
                // asks for h2c, which this server does not speak) is an ordinary request.
                && !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))
                && !path.isEmpty() && !path.endsWith("/") // a directory: its welcome page, if any
                && request.getHttpServletMapping().getMappingMatch() == MappingMatch.DEFAULT
                && request.getServletContext().getResource(path) == null) {
            ServletJson.write(response, HttpServletResponse.SC_NOT_FOUND, ErrorServlet.body(HttpServletResponse.SC_NOT_FOUND),
                    !"HEAD".equals(request.getMethod()));
            return;
        }
        chain.doFilter(request, response);
    }
}
