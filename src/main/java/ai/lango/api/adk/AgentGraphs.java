package ai.lango.api.adk;

import ai.lango.api.ApiJson;
import ai.lango.turn.AgentInfo;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The agent tree as ADK's dev UI draws it: a JSON tree for its agent panel, Graphviz DOT for an event's graph. */
final class AgentGraphs {

    private AgentGraphs() {
    }

    /** The tree as ADK's build_graph answers it: names, descriptions, tools, sub-agents. */
    static ObjectNode describe(AgentInfo agent) {
        ObjectNode node = ApiJson.MAPPER.createObjectNode().put("name", agent.name()).put("description", agent.description());
        ArrayNode tools = node.putArray("tools");
        agent.tools().forEach(tool -> tools.addObject().put("name", tool));
        ArrayNode subs = node.putArray("sub_agents");
        agent.subAgents().forEach(sub -> subs.add(describe(sub)));
        return node;
    }

    /** The tree as Graphviz DOT, as ADK's server draws it for an event. */
    static String dot(java.util.Optional<AgentInfo> root) {
        StringBuilder dot = new StringBuilder("digraph \"AgentGraph\" {\ngraph [\"rankdir\"=\"LR\"]\n");
        root.ifPresent(agent -> draw(agent, dot));
        return dot.append("}\n").toString();
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
}
