package ai.lango.api;

import ai.lango.adk.AgentService;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.Names;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * The other routes ADK's dev UI calls, answered as ADK's API server answers them or, for what
 * Lango does not have (the agent builder, evaluations, traces), with an empty valid answer, so the
 * UI shows its chat without errors. The same paths as ADK's server, under /api. (Artifacts:
 * {@link ArtifactsResource}.)
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class DevUiApi {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    AgentService agent;

    /** What the UI shows as the ADK version. */
    @GET
    @Path("version")
    public String version() {
        return JSON.createObjectNode().put("version", agent.adkVersion()).put("language", "java")
                .put("language_version", System.getProperty("java.version")).toString();
    }

    /** The agent tree, for the UI's agent panel: names, descriptions, tools, sub-agents. */
    @GET
    @Path("dev/build_graph/{app}")
    public Response buildGraph(@PathParam("app") String app) {
        if (!Names.APP.equals(app)) {
            return SessionsResource.unknownApp(app);
        }
        ObjectNode body = JSON.createObjectNode();
        agent.agents().ifPresentOrElse(root -> body.set("root_agent", describe(root)), () -> body.putNull("root_agent"));
        return ApiJson.ok(body);
    }

    /** Rendered graphs per agent path; Lango renders none. */
    @GET
    @Path("dev/build_graph_image/{app}")
    public String buildGraphImage(@PathParam("app") String app) {
        return "{}";
    }

    /** The agent builder's YAML: empty text, which the UI reads as "no builder for this app". */
    @GET
    @Path("builder/app/{app}")
    @Produces(MediaType.TEXT_PLAIN)
    public String builderApp(@PathParam("app") String app) {
        return "";
    }

    /** Span attributes of one event's model call; Lango keeps no traces. */
    @GET
    @Path("debug/trace/{eventId}")
    public String eventTrace(@PathParam("eventId") String eventId) {
        return "{}";
    }

    @GET
    @Path("debug/trace/session/{sessionId}")
    public String sessionTrace(@PathParam("sessionId") String sessionId) {
        return "[]";
    }

    /** Evaluations are not part of Lango: no eval sets, no results, no metrics (as ADK for Java's stubs). */
    @GET
    @Path("apps/{app}/eval_sets")
    public String evalSets(@PathParam("app") String app) {
        return "[]";
    }

    @GET
    @Path("apps/{app}/eval_results")
    public String evalResults(@PathParam("app") String app) {
        return "[]";
    }

    @GET
    @Path("apps/{app}/metrics-info")
    public String metricsInfo(@PathParam("app") String app) {
        return "{\"metricsInfo\":[]}";
    }

    @POST
    @Path("apps/{app}/eval-sets")
    public Response createEvalSet(@PathParam("app") String app) {
        return notSupported("evaluations");
    }

    /** The agent tree as Graphviz DOT, as ADK's server draws it for an event. */
    @GET
    @Path("apps/{app}/users/{user}/sessions/{session}/events/{event}/graph")
    public String eventGraph(@PathParam("app") String app, @PathParam("user") String user,
                             @PathParam("session") String session, @PathParam("event") String event) {
        StringBuilder dot = new StringBuilder("digraph \"AgentGraph\" {\ngraph [\"rankdir\"=\"LR\"]\n");
        agent.agents().ifPresent(root -> draw(root, dot));
        return JSON.createObjectNode().put("dotSrc", dot.append("}\n").toString()).toString();
    }

    private static void draw(AgentInfo agent, StringBuilder dot) {
        dot.append(quote(agent.name())).append(" [\"shape\"=\"ellipse\"]\n");
        for (String tool : agent.tools()) {
            dot.append(quote(tool)).append(" [\"shape\"=\"box\"]\n")
                    .append(quote(agent.name())).append(" -> ").append(quote(tool)).append('\n');
        }
        for (AgentInfo sub : agent.subAgents()) {
            draw(sub, dot);
            dot.append(quote(agent.name())).append(" -> ").append(quote(sub.name())).append('\n');
        }
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "'") + "\"";
    }

    private static ObjectNode describe(AgentInfo agent) {
        ObjectNode node = JSON.createObjectNode().put("name", agent.name()).put("description", agent.description());
        ArrayNode tools = node.putArray("tools");
        agent.tools().forEach(tool -> tools.addObject().put("name", tool));
        ArrayNode subs = node.putArray("sub_agents");
        agent.subAgents().forEach(sub -> subs.add(describe(sub)));
        return node;
    }

    private static Response notSupported(String what) {
        return ApiError.of(Response.Status.NOT_IMPLEMENTED, "not_supported", what + " are not supported by Lango");
    }
}
