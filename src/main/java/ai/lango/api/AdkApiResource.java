package ai.lango.api;

import ai.lango.adk.AgentService;
import ai.lango.adk.LangoRunner;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * The run endpoints of ADK's API server, same paths and JSON (ADK's own mapper), so ADK clients
 * work against Lango: {@code GET /api/list-apps} and {@code POST /api/run}.
 */
@Path("/")
@ApplicationScoped
public class AdkApiResource {

    @Inject
    AgentService agent;

    @GET
    @Path("list-apps")
    @Produces(MediaType.APPLICATION_JSON)
    public String listApps() {
        return "[\"" + AgentService.APP_NAME + "\"]";
    }

    /** Runs one turn; answers with every event of the run (the user's own event not included). */
    @POST
    @Path("run")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response run(String body) {
        JsonNode request;
        try {
            request = JsonBaseModel.getMapper().readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", "the body is not valid JSON: "
                    + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr());
        }
        String appName = text(request, "appName");
        String sessionId = text(request, "sessionId");
        String userId = text(request, "userId");
        if (appName.isEmpty() || sessionId.isEmpty()) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "appName and sessionId are required");
        }
        if (!AgentService.APP_NAME.equals(appName)) {
            return ApiError.of(Response.Status.NOT_FOUND, "unknown_app", "no app \"" + appName + "\"; this server runs \""
                    + AgentService.APP_NAME + "\"");
        }
        StringBuilder message = new StringBuilder();
        request.path("newMessage").path("parts").forEach(part -> message.append(part.path("text").asText("")));
        if (message.length() == 0) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "newMessage needs at least one text part");
        }
        List<Event> events = new ArrayList<>();
        try {
            agent.chat(userId.isEmpty() ? AgentService.DEFAULT_USER : userId, sessionId, message.toString(), false, events::add);
        } catch (LangoRunner.TurnException e) {
            return ApiError.of(Response.Status.INTERNAL_SERVER_ERROR, "run_failed", e.getMessage());
        }
        try {
            return Response.ok(JsonBaseModel.getMapper().writeValueAsString(events), MediaType.APPLICATION_JSON).build();
        } catch (JsonProcessingException e) {
            return ApiError.of(Response.Status.INTERNAL_SERVER_ERROR, "serialisation_failed", e.getOriginalMessage());
        }
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).asText("").trim();
    }
}
