package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.mcp.McpServers;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The MCP servers Lango uses, for operators: each with its transport, where it stands (starting,
 * ready, restarting or failed, with the reason, a stdio server's last lines on stderr and a hint when
 * the cause is known), its tools, who may use it and how many connections are open; what is wrong in
 * the file; and a restart.
 */
@Path("admin/mcp")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class McpResource {

    @Inject
    McpServers servers;

    @GET
    public Response list() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("file", servers.file().toString());
        ArrayNode list = body.putArray("servers");
        for (McpServers.Status status : servers.status()) {
            ObjectNode server = list.addObject().put("name", status.name()).put("transport", status.transport())
                    .put("state", status.state().name().toLowerCase(java.util.Locale.ROOT))
                    .put("lastError", status.lastError().orElse(null)).put("hint", status.hint().orElse(null))
                    .put("failures", status.failures()).put("connections", status.connections());
            status.stderr().forEach(server.putArray("stderr")::add);
            status.tools().forEach(server.putArray("tools")::add);
            status.users().forEach(server.putArray("users")::add);
        }
        servers.problems().forEach(body.putArray("problems")::add);
        return ApiJson.ok(body);
    }

    /** Closes the server's connections and starts it again. */
    @POST
    @Path("{name}/restart")
    public Response restart(@PathParam("name") String name) {
        if (!servers.restart(name)) {
            return ApiError.of(Response.Status.NOT_FOUND, "not_found", "no MCP server \"" + name + "\" in " + servers.file());
        }
        return Response.accepted(ApiJson.MAPPER.createObjectNode().put("name", name).put("state", "restarting").toString())
                .type(MediaType.APPLICATION_JSON).build();
    }
}
