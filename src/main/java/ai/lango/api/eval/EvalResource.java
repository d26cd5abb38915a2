package ai.lango.api.eval;

import ai.lango.api.ApiError;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The evaluation routes ADK's dev UI calls. Evaluations are not part of Lango yet: no eval sets, no
 * results, no metrics (as ADK for Java's own stubs answer), so the UI shows its chat without errors.
 */
@Path("apps/{app}")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class EvalResource {

    @GET
    @Path("eval_sets")
    public String evalSets(@PathParam("app") String app) {
        return "[]";
    }

    @GET
    @Path("eval_results")
    public String evalResults(@PathParam("app") String app) {
        return "[]";
    }

    @GET
    @Path("metrics-info")
    public String metricsInfo(@PathParam("app") String app) {
        return "{\"metricsInfo\":[]}";
    }

    @POST
    @Path("eval-sets")
    public Response createEvalSet(@PathParam("app") String app) {
        return ApiError.of(Response.Status.NOT_IMPLEMENTED, "not_supported", "evaluations are not supported by Lango");
    }
}
