package ai.lango.api;

import ai.lango.masking.MaskedLogs;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs a request that failed inside the application, once, with its stack trace. Liberty's own
 * report of such failures (SRVE0315E) is hidden in server.xml, because Liberty files the same
 * report for a client's malformed URL (an encoded '/'), which any client could repeat to flood the
 * log; a URL Liberty refuses never reaches this filter. A client that goes away mid-answer
 * (IOException) is not the server's failure and is not logged.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class FailureLog extends HttpFilter {

    private static final Logger LOG = MaskedLogs.of(FailureLog.class);

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | RuntimeException e) {
            // The path only: a query string may carry a session key or a search text.
            LOG.log(Level.SEVERE, request.getMethod() + " " + request.getRequestURI() + " failed", e);
            throw e;
        }
    }
}
