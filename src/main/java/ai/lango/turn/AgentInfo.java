package ai.lango.turn;

import java.util.List;

/** An agent of the tree the server runs: its name, what it does, its tools, its sub-agents. */
public record AgentInfo(String name, String description, List<String> tools, List<AgentInfo> subAgents, boolean remote) {

    public AgentInfo {
        tools = List.copyOf(tools);
        subAgents = List.copyOf(subAgents);
    }
}
