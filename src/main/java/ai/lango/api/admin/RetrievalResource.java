package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.retrieval.Retrieval;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: which embedding model is in use, how many vectors each collection has, whether work is waiting. */
@Path("admin/retrieval")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class RetrievalResource {

    @Inject
    Retrieval retrieval;

    @GET
    public Response status() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("model", retrieval.model())
                .put("idle", retrieval.idle());
        ObjectNode vectors = body.putObject("vectors");
        retrieval.counts().forEach(vectors::put);
        retrieval.failure().ifPresent(f -> body.put("failure", f));
        return ApiJson.ok(body);
    }
}
