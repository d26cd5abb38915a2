package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.browser.BrowserPool;
import ai.lango.config.LangoSettings;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: whether the browser tools are on, whether Chromium runs, and how many sessions have a context in it. */
@Path("admin/browser")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class BrowserResource {

    @Inject
    LangoSettings.Browser settings;

    @Inject
    BrowserPool pool;

    @GET
    public Response status() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("enabled", settings.enabled());
        BrowserPool.Status status = settings.enabled() ? pool.status() : new BrowserPool.Status(false, 0);
        body.put("running", status.running()).put("contexts", status.contexts()).put("maxContexts", settings.maxContexts())
                .put("sessionTimeout", settings.sessionTimeout().toString()).put("executable", settings.executable().toString());
        return ApiJson.ok(body);
    }
}
