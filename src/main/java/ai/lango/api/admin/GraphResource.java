package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.config.LangoSettings;
import ai.lango.graph.GraphStore;
import ai.lango.graph.GraphToolset;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: the knowledge graph's triples (by subject, predicate, object; the first ones without) and its size. */
@Path("admin/graph")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class GraphResource {

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    GraphStore graph;

    @GET
    public Response triples(@QueryParam("subject") String subject, @QueryParam("predicate") String predicate,
                            @QueryParam("object") String object) {
        if (!settings.graphEnabled()) {
            return disabled();
        }
        return ApiJson.ok(ApiJson.MAPPER.valueToTree(GraphToolset.result(graph.query(blankAsNull(subject),
                blankAsNull(predicate), blankAsNull(object)))));
    }

    @GET
    @Path("stats")
    public Response stats() {
        if (!settings.graphEnabled()) {
            return disabled();
        }
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("triples", graph.count());
        ObjectNode predicates = body.putObject("predicates");
        graph.countByPredicate().forEach(predicates::put);
        return ApiJson.ok(body);
    }

    private static Response disabled() {
        return ApiError.of(Response.Status.NOT_FOUND, "graph_disabled", "the knowledge graph is off (lango.graph.enabled)");
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
