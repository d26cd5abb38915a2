package ai.lango.api.eval;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.eval.EvalFormat;
import ai.lango.eval.EvalFormatException;
import ai.lango.eval.EvalLibrary;
import ai.lango.eval.Metric;
import ai.lango.security.Identity;
import ai.lango.turn.Names;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The evaluation routes of ADK's API server, as its dev UI calls them (the older underscore paths) and as ADK's newer
 * clients do (hyphenated, answers wrapped in an object): eval sets, their cases, a case from a session, runs and
 * their results, the metrics. The caller's sets are their own, and the shared ones when they administer; results
 * are their own. Where both spellings share a method, the spelling is a path variable of its own, declared (and
 * unused) so that the OpenAPI document names every variable of the path.
 */
@Path("apps/{app}")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class EvalResource {

    @Inject
    Evaluations evaluations;

    @Inject
    EvalLibrary library;

    @GET
    @Path("eval_sets")
    public Response evalSets(@PathParam("app") String app, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(ids(ids(Callers.of(request)))));
    }

    @GET
    @Path("eval-sets")
    public Response evalSetIds(@PathParam("app") String app, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(wrapped("evalSetIds", ids(ids(Callers.of(request))))));
    }

    /** ADK's newer create: {@code {"eval_set": {"eval_set_id": …}}} (or camelCase). */
    @POST
    @Path("eval-sets")
    public Response create(@PathParam("app") String app, String body, @Context HttpServletRequest request) {
        return answer(app, () -> {
            JsonNode json = Evaluations.parse(body);
            JsonNode set = json == null ? null : json.has("eval_set") ? json.get("eval_set") : json.get("evalSet");
            JsonNode id = set == null ? null : set.has("eval_set_id") ? set.get("eval_set_id") : set.get("evalSetId");
            if (id == null || !id.isTextual()) {
                throw new EvalFormatException("eval_set.eval_set_id: missing");
            }
            return created(request, id.asText());
        });
    }

    /** ADK's older create: the id in the path, no body. */
    @POST
    @Path("eval_sets/{set}")
    public Response createNamed(@PathParam("app") String app, @PathParam("set") String set, @Context HttpServletRequest request) {
        return answer(app, () -> created(request, set));
    }

    private Response created(HttpServletRequest request, String setId) {
        Identity caller = Callers.of(request);
        EvalLibrary.Owned made = library.create(caller.userId(), Evaluations.administers(caller), setId);
        return ApiJson.ok(EvalFormat.wireSet(made.set()));
    }

    @GET
    @Path("{sets: eval_sets|eval-sets}/{set}")
    public Response evalSet(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("set") String set,
                            @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(EvalFormat.wireSet(set(Callers.of(request), set).set())));
    }

    @DELETE
    @Path("{sets: eval_sets|eval-sets}/{set}")
    public Response deleteSet(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("set") String set, @Context HttpServletRequest request) {
        return answer(app, () -> {
            Identity caller = Callers.of(request);
            library.delete(caller.userId(), Evaluations.administers(caller), set(caller, set));
            return Response.noContent().build();
        });
    }

    @GET
    @Path("eval_sets/{set}/evals")
    public Response evals(@PathParam("app") String app, @PathParam("set") String set, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(ids(set(Callers.of(request), set).set().cases().stream()
                .map(c -> c.evalId()).sorted().toList())));
    }

    @POST
    @Path("{sets: eval_sets|eval-sets}/{set}/{add: add_session|add-session}")
    public Response addSession(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("add") String add, @PathParam("set") String set, String body,
                               @Context HttpServletRequest request) {
        return answer(app, () -> {
            evaluations.addSession(Callers.of(request), set, Evaluations.parse(body));
            return Response.ok("null", MediaType.APPLICATION_JSON).build();
        });
    }

    @GET
    @Path("{sets: eval_sets|eval-sets}/{set}/{cases: evals|eval-cases}/{evalId}")
    public Response evalCase(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("cases") String cases, @PathParam("set") String set, @PathParam("evalId") String evalId,
                             @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(EvalFormat.caseJson(set(Callers.of(request), set).set().find(evalId)
                .orElseThrow(() -> new EvalLibrary.Refused(404, "eval_case_not_found", "eval set \"" + set + "\" has no case \""
                        + evalId + "\"")), true)));
    }

    @PUT
    @Path("{sets: eval_sets|eval-sets}/{set}/{cases: evals|eval-cases}/{evalId}")
    public Response updateCase(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("cases") String cases, @PathParam("set") String set, @PathParam("evalId") String evalId,
                               String body, @Context HttpServletRequest request) {
        return answer(app, () -> {
            evaluations.putCase(Callers.of(request), set, evalId, Evaluations.parse(body));
            return Response.ok("null", MediaType.APPLICATION_JSON).build();
        });
    }

    @DELETE
    @Path("{sets: eval_sets|eval-sets}/{set}/{cases: evals|eval-cases}/{evalId}")
    public Response deleteCase(@PathParam("app") String app, @PathParam("sets") String sets, @PathParam("cases") String cases, @PathParam("set") String set, @PathParam("evalId") String evalId,
                               @Context HttpServletRequest request) {
        return answer(app, () -> {
            evaluations.deleteCase(Callers.of(request), set, evalId);
            return Response.ok("null", MediaType.APPLICATION_JSON).build();
        });
    }

    /** The dev UI's run: a list of each case's result (ADK's RunEvalResult), the whole result stored first. */
    @POST
    @Path("eval_sets/{set}/run_eval")
    public Response runEval(@PathParam("app") String app, @PathParam("set") String set, String body,
                            @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(Evaluations.runEvalResults(evaluations.run(Callers.of(request), set,
                Evaluations.parse(body)))));
    }

    @POST
    @Path("eval-sets/{set}/run")
    public Response run(@PathParam("app") String app, @PathParam("set") String set, String body, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(wrapped("runEvalResults", Evaluations.runEvalResults(evaluations.run(
                Callers.of(request), set, Evaluations.parse(body))))));
    }

    @GET
    @Path("eval_results")
    public Response evalResults(@PathParam("app") String app, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(ids(evaluations.resultIds(Callers.of(request)))));
    }

    @GET
    @Path("eval-results")
    public Response evalResultIds(@PathParam("app") String app, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(wrapped("evalResultIds", ids(evaluations.resultIds(Callers.of(request))))));
    }

    @GET
    @Path("{results: eval_results|eval-results}/{id}")
    public Response evalResult(@PathParam("app") String app, @PathParam("results") String results, @PathParam("id") String id, @Context HttpServletRequest request) {
        return answer(app, () -> ApiJson.ok(evaluations.result(Callers.of(request), id)));
    }

    @GET
    @Path("metrics-info")
    public Response metricsInfo(@PathParam("app") String app) {
        return answer(app, () -> {
            ObjectNode json = EvalFormat.MAPPER.createObjectNode();
            ArrayNode list = json.putArray("metricsInfo");
            for (Metric.Info info : Metric.INFO) {
                ObjectNode metric = list.addObject().put("metricName", info.name()).put("description", info.description());
                metric.putObject("metricValueInfo").putObject("interval").put("minValue", 0.0).put("openAtMin", false)
                        .put("maxValue", 1.0).put("openAtMax", false);
            }
            return ApiJson.ok(json);
        });
    }

    /** One route's work, answered with its refusal or the field a bad request got wrong (400). */
    @FunctionalInterface
    interface Work {
        Response run() throws EvalFormatException;
    }

    static Response answer(String app, Work work) {
        if (!Names.APP.equals(app)) {
            return ApiError.of(Response.Status.NOT_FOUND, "unknown_app", "no app \"" + app + "\"; this server runs \"" + Names.APP + "\"");
        }
        return answer(work);
    }

    static Response answer(Work work) {
        try {
            return work.run();
        } catch (EvalFormatException e) {
            return Evaluations.invalid(e);
        } catch (EvalLibrary.Refused e) {
            return Evaluations.refused(e);
        }
    }

    /** The ids of the caller's sets. */
    private java.util.List<String> ids(Identity caller) {
        return library.ids(caller.userId(), Evaluations.administers(caller));
    }

    /** The set {@code setId} as the caller sees it, or 404. */
    private EvalLibrary.Owned set(Identity caller, String setId) {
        return library.get(caller.userId(), Evaluations.administers(caller), setId);
    }

    private static ArrayNode ids(java.util.List<String> ids) {
        ArrayNode list = EvalFormat.MAPPER.createArrayNode();
        ids.forEach(list::add);
        return list;
    }

    private static ObjectNode wrapped(String name, JsonNode value) {
        ObjectNode json = EvalFormat.MAPPER.createObjectNode();
        json.set(name, value);
        return json;
    }
}
