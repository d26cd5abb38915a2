package ai.lango.api.a2a;

import ai.lango.a2a.A2aProtocol;
import ai.lango.a2a.AgentCard;
import ai.lango.turns.Turns;
import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The A2A agent card at the context root, outside the JAX-RS application: {@code GET
 * /.well-known/agent.json} and {@code /.well-known/agent-card.json} (the name A2A 1.0 and 0.3 clients ask
 * for), one card for both versions. Public, like /health; 404 while {@code lango.a2a.enabled} is false.
 * With authentication configured, the card says that the endpoint needs a bearer credential.
 */
@WebServlet(name = "AgentCard", urlPatterns = {A2aProtocol.LEGACY_CARD_PATH, A2aProtocol.CARD_PATH})
public class AgentCardServlet extends HttpServlet {

    @Inject
    Turns turns;

    @Inject
    LangoSettings settings;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (ServletJson.refusedUnlessRead(request, response, "the agent card")) {
            return;
        }
        boolean body = request.getMethod().equals("GET");
        if (!settings.a2a().enabled()) {
            ServletJson.write(response, HttpServletResponse.SC_NOT_FOUND, ApiError.body("a2a_disabled", "A2A is disabled on this server; set "
                    + Keys.A2A_ENABLED + "=true to publish the agent card"), body);
            return;
        }
        AgentCard card = AgentCards.card(turns.agents(), AgentCards.endpointUrl(request.getScheme(),
                request.getServerName(), request.getServerPort(), request.getContextPath()), ai.lango.api.LangoVersion.get());
        if (settings.access().authenticates()) {
            card = card.withBearerAuth("Authorization: Bearer <the operator token, a user's API token or a JWT>");
        }
        // Public and harmless to read from any page (A2A inspectors run in browsers).
        response.setHeader("Access-Control-Allow-Origin", "*");
        response.setHeader("Cache-Control", "no-cache");
        ServletJson.write(response, HttpServletResponse.SC_OK, card.toJson().toString(), body);
    }
}
