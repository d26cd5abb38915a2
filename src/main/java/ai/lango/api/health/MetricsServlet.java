package ai.lango.api.health;

import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Optional;

/**
 * {@code GET /metrics}: Lango's meters and the JVM's in the Prometheus text format (OpenMetrics when
 * the scraper asks for it). Served by the WAR rather than Liberty's mpMetrics app so that, with
 * authentication configured, it needs an administrator's credential like the admin API.
 */
@WebServlet(name = "Metrics", urlPatterns = "/metrics")
public class MetricsServlet extends HttpServlet {

    @Inject
    PrometheusMeterRegistry registry;

    @Inject
    Credentials credentials;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (ServletJson.refusedUnlessRead(request, response, "/metrics")) {
            return;
        }
        boolean body = request.getMethod().equals("GET");
        Optional<Identity> caller = credentials.fromAuthorization(request.getHeader("Authorization"));
        if (caller.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer");
            ServletJson.write(response, HttpServletResponse.SC_UNAUTHORIZED,
                    ApiError.body("unauthorized", ApiError.UNAUTHORIZED), body);
            return;
        }
        if (!caller.get().admin()) {
            ServletJson.write(response, HttpServletResponse.SC_FORBIDDEN,
                    ApiError.body("forbidden", "the metrics are for administrators"), body);
            return;
        }
        String accept = request.getHeader("Accept");
        String contentType = accept != null && accept.contains("application/openmetrics-text")
                ? OpenMetricsTextFormatWriter.CONTENT_TYPE : PrometheusTextFormatWriter.CONTENT_TYPE;
        ByteArrayOutputStream text = new ByteArrayOutputStream(16_384);
        registry.scrape(text, contentType);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(text.size());
        if (body) {
            text.writeTo(response.getOutputStream());
        }
    }
}
