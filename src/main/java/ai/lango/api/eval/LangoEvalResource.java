package ai.lango.api.eval;

import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.eval.EvalFormat;
import ai.lango.eval.EvalLibrary;
import ai.lango.eval.EvalReports;
import ai.lango.eval.EvalRun;
import ai.lango.eval.EvalRuns;
import ai.lango.security.Identity;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Lango's own evaluation routes, for people and CI: {@code GET /api/eval/sets} (the caller's sets and, for an
 * administrator, the eval folder's files that did not load), {@code GET|PUT /api/eval/sets/{id}} (export and import
 * in ADK's file format), {@code POST /api/eval/sets/{id}/run} (the result as JSON, or as JUnit XML for
 * {@code Accept: application/xml} or {@code ?format=junit}; the header {@value #STATUS} says passed, failed or
 * not_evaluated), results, and the runs going on ({@code DELETE /api/eval/runs/{id}} cancels one).
 */
@Path("eval")
@ApplicationScoped
public class LangoEvalResource {

    /** The header that carries a run's outcome, for a CI step that checks it. */
    static final String STATUS = "Lango-Eval-Status";

    @Inject
    Evaluations evaluations;

    @Inject
    EvalLibrary library;

    @Inject
    EvalRuns runs;

    @GET
    @Path("sets")
    public Response sets(@Context HttpServletRequest request) {
        Identity caller = Callers.of(request);
        boolean admin = Evaluations.administers(caller);
        ObjectNode json = EvalFormat.MAPPER.createObjectNode();
        ArrayNode sets = json.putArray("sets");
        for (String id : library.ids(caller.userId(), admin)) {
            library.find(caller.userId(), admin, id).ifPresent(owned -> {
                ObjectNode set = sets.addObject().put("id", id).put("shared", owned.shared())
                        .put("mayChange", !owned.shared() || admin);
                ArrayNode cases = set.putArray("cases");
                owned.set().cases().forEach(c -> cases.add(c.evalId()));
            });
        }
        ArrayNode problems = json.putArray("problems");
        if (admin) { // the files of the eval folder are the administrators' sets: their names are theirs too
            library.problems().forEach(p -> problems.addObject().put("file", p.file()).put("error", p.error()));
        }
        return ApiJson.ok(json);
    }

    @GET
    @Path("sets/{set}")
    public Response export(@PathParam("set") String set, @Context HttpServletRequest request) {
        Identity caller = Callers.of(request);
        return EvalResource.answer(() -> Response.ok(EvalFormat.fileJson(library.get(caller.userId(), Evaluations.administers(caller),
                set).set()).toPrettyString(), MediaType.APPLICATION_JSON).header("Content-Disposition", "attachment; filename=\"" + set
                + ".evalset.json\"").build());
    }

    @PUT
    @Path("sets/{set}")
    public Response put(@PathParam("set") String set, String body, @Context HttpServletRequest request) {
        return EvalResource.answer(() -> ApiJson.ok(EvalFormat.fileJson(evaluations.putSet(Callers.of(request), set,
                Evaluations.parse(body)))));
    }

    @POST
    @Path("sets/{set}/run")
    public Response run(@PathParam("set") String set, @QueryParam("format") String format, String body,
                        @Context HttpHeaders headers, @Context HttpServletRequest request) {
        return EvalResource.answer(() -> report(evaluations.run(Callers.of(request), set, Evaluations.parse(body)), format, headers));
    }

    @GET
    @Path("results")
    public Response results(@Context HttpServletRequest request) {
        ArrayNode list = EvalFormat.MAPPER.createArrayNode();
        evaluations.resultIds(Callers.of(request)).forEach(list::add);
        ObjectNode json = EvalFormat.MAPPER.createObjectNode();
        json.set("evalResultIds", list);
        return ApiJson.ok(json);
    }

    @GET
    @Path("results/{id}")
    public Response result(@PathParam("id") String id, @QueryParam("format") String format, @Context HttpHeaders headers,
                           @Context HttpServletRequest request) {
        return EvalResource.answer(() -> report(evaluations.result(Callers.of(request), id), format, headers));
    }

    @GET
    @Path("runs")
    public Response running(@Context HttpServletRequest request) {
        ArrayNode list = EvalFormat.MAPPER.createArrayNode();
        for (EvalRun run : runs.of(Callers.of(request).userId())) {
            list.addObject().put("id", run.id()).put("evalSetId", run.setId()).put("started", run.started().toString())
                    .put("deadline", run.deadline().toString()).put("sessionId", run.session());
        }
        ObjectNode json = EvalFormat.MAPPER.createObjectNode();
        json.set("runs", list);
        return ApiJson.ok(json);
    }

    @DELETE
    @Path("runs/{id}")
    public Response cancel(@PathParam("id") String id, @Context HttpServletRequest request) {
        return EvalResource.answer(() -> {
            EvalRun run = runs.get(id, Callers.of(request).userId()).orElseThrow(() -> new EvalLibrary.Refused(404,
                    "eval_run_not_found", "no eval run \"" + id + "\" of yours goes on"));
            evaluations.cancel(run);
            return Response.accepted().build();
        });
    }

    private static Response report(ObjectNode result, String format, HttpHeaders headers) {
        boolean junit = "junit".equals(format) || headers.getAcceptableMediaTypes().stream()
                .anyMatch(t -> t.isCompatible(MediaType.APPLICATION_XML_TYPE) && !t.isWildcardType());
        Response.ResponseBuilder response = junit ? Response.ok(EvalReports.junit(result), MediaType.APPLICATION_XML)
                : Response.ok(result.toString(), MediaType.APPLICATION_JSON);
        return response.header(STATUS, result.path("status").asText()).build();
    }
}
