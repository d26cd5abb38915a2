package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.config.EffectiveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: the configuration in force, every key with its value or default; secrets are never returned. */
@Path("admin/config")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class ConfigResource {

    @Inject
    EffectiveConfig effective;

    @GET
    public Response config() {
        return ApiJson.ok(ApiJson.MAPPER.valueToTree(effective.values()));
    }
}
