package ai.lango.api.admin;

import ai.lango.turns.Turns;
import ai.lango.api.ApiJson;
import ai.lango.turn.AgentInfo;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** For operators: the agent tree, with names, descriptions and each agent's tools. */
@Path("admin/agents")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class AgentsResource {

    @Inject
    Turns turns;

    @GET
    public Response agents() {
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        turns.agents().ifPresentOrElse(root -> body.set("root", describe(root)), () -> body.putNull("root"));
        return ApiJson.ok(body);
    }

    private static ObjectNode describe(AgentInfo agent) {
        ObjectNode node = ApiJson.MAPPER.createObjectNode().put("name", agent.name()).put("description", agent.description());
        ArrayNode tools = node.putArray("tools");
        agent.tools().forEach(tools::add);
        ArrayNode children = node.putArray("subAgents");
        agent.subAgents().forEach(sub -> children.add(describe(sub)));
        return node;
    }
}
