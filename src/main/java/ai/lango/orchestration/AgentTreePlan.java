package ai.lango.orchestration;

import ai.lango.config.Keys;
import ai.lango.tool.ToolFamily;
import ai.lango.turn.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The multi-agent tree as data: which sub-agents exist, with which tools, how they are
 * described and instructed, and the orchestrator's delegation rules, generated from the agents
 * actually created. The {@code adk} package turns the plan into ADK agents.
 */
public final class AgentTreePlan {


    /** A local sub-agent to create. */
    public record SubAgent(String name, String description, String instruction, List<String> tools) {
    }

    /** An agent the orchestrator can delegate to: a local sub-agent or a remote A2A agent. */
    public record Delegate(String name, String description, boolean remote) {
    }

    private AgentTreePlan() {
    }

    /**
     * The local sub-agents for these tools (name → family, in the agent's order): only those that
     * get a tool, and always the planner.
     */
    public static List<SubAgent> subAgents(Map<String, ToolFamily> tools) {
        List<SubAgent> agents = new ArrayList<>();
        for (Map.Entry<String, Map<String, ToolFamily>> entry : ToolPartition.partition(tools).entrySet()) {
            SubAgentRole role = SubAgentRole.named(entry.getKey()).orElseThrow();
            agents.add(new SubAgent(role.agentName(), role.description(entry.getValue().values()),
                    role.instruction(Names.ORCHESTRATOR), ToolPartition.names(entry.getValue())));
        }
        return List.copyOf(agents);
    }

    /**
     * The orchestrator's delegation rules: the exact names of the agents it can delegate to, what
     * each is for, and the round budget. Nothing in it is a tool name or a word that could pass
     * for an agent's name.
     */
    public static String orchestratorRules(List<Delegate> delegates, int maxDelegationRounds) {
        int rounds = maxDelegationRounds > 0 ? maxDelegationRounds : DEFAULT_MAX_DELEGATION_ROUNDS;
        List<String> names = delegates.stream().map(Delegate::name).toList();
        StringBuilder rules = new StringBuilder();
        rules.append("You have NO tools of your own. Every task that needs an action, a lookup or memory MUST be")
                .append(" delegated to one of these agents, by its exact name:\n");
        for (Delegate delegate : delegates) {
            rules.append("- ").append(delegate.name()).append(": ").append(delegate.description())
                    .append(delegate.remote() ? " (a remote agent)" : "").append('\n');
        }
        rules.append("\nWho does what:\n");
        for (Delegate delegate : delegates) {
            SubAgentRole.named(delegate.name()).filter(role -> !delegate.remote()).ifPresentOrElse(
                    role -> rules.append("- ").append(role.delegateWhen()).append(": ").append(role.agentName()).append('\n'),
                    () -> rules.append("- tasks that match its description: ").append(delegate.name()).append('\n'));
        }
        rules.append("\nNEVER invent or abbreviate agent names. The only valid agent names are: ")
                .append(String.join(", ", names)).append(". Use them exactly as written.\n")
                .append("Answer simple conversation yourself, without delegating: greetings, thanks, opinions and")
                .append(" general knowledge.\n")
                .append("You have at most ").append(rounds).append(" delegation rounds per request. Budget them:")
                .append(" simple tasks 1-2 rounds, medium tasks 3-5, complex tasks 6-10. When the rounds are used up,")
                .append(" answer with what you have.\n")
                .append("When an agent reports back, give the user one clear answer built from its report.");
        return rules.toString();
    }

    /** The configuration's default: ten rounds leave room for multi-step tasks. */
    static final int DEFAULT_MAX_DELEGATION_ROUNDS = Keys.MAX_DELEGATION_ROUNDS.defaultValue();
}
