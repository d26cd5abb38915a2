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

    @Inject
    ai.lango.usage.UsageLedger usage;

    /** Every key in force, and the prices in force (built-in and set) under "lango.pricing", USD per million tokens. */
    @GET
    public Response config() {
        com.fasterxml.jackson.databind.node.ObjectNode body = ApiJson.MAPPER.valueToTree(effective.values());
        com.fasterxml.jackson.databind.node.ObjectNode prices = body.putObject("lango.pricing");
        usage.pricing().table().forEach((model, price) -> prices.putObject(model).put("input", price.input().toPlainString())
                .put("output", price.output().toPlainString())
                .put("cached", (price.cached() == null ? price.input() : price.cached()).toPlainString()));
        return ApiJson.ok(body);
    }
}
