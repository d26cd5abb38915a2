package ai.lango.adk.agents;

import ai.lango.orchestration.AgentTreePlan;
import ai.lango.prompt.PromptBuilder;
import ai.lango.turn.Names;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.Instruction;
import com.google.adk.agents.LlmAgent;
import com.google.adk.models.BaseLlm;
import com.google.adk.tools.BaseTool;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds the agent the runner runs: one agent with every tool, or (spec 002) the orchestrator
 * with no tools of its own over the sub-agents of {@link AgentTreePlan}, each tool given to
 * exactly one of them, and remote agents appended.
 */
public final class AgentTree {

    private AgentTree() {
    }

    public static BaseAgent single(BaseLlm model, List<BaseTool> tools, PromptBuilder prompts) {
        return LlmAgent.builder()
                .name(Names.SINGLE_AGENT)
                .description(Names.SINGLE_AGENT_DESCRIPTION)
                .model(model)
                .instruction(fixed(prompts.singleAgent()))
                .tools(tools)
                .build();
    }

    public static BaseAgent orchestrator(BaseLlm model, List<BaseTool> tools, List<BaseAgent> remoteAgents,
                                  PromptBuilder prompts, int maxDelegationRounds) {
        Map<String, BaseTool> byName = tools.stream().collect(Collectors.toMap(BaseTool::name, Function.identity()));
        List<BaseAgent> subAgents = new ArrayList<>();
        List<AgentTreePlan.Delegate> delegates = new ArrayList<>();
        for (AgentTreePlan.SubAgent planned : AgentTreePlan.subAgents(tools.stream().map(BaseTool::name).toList())) {
            subAgents.add(LlmAgent.builder()
                    .name(planned.name())
                    .description(planned.description())
                    .model(model)
                    .instruction(fixed(prompts.subAgent(planned.instruction(), !planned.tools().isEmpty())))
                    .tools(planned.tools().stream().map(byName::get).toList())
                    // Work flows through the orchestrator: a sub-agent reports back, it does not hand off sideways.
                    .disallowTransferToPeers(true)
                    .build());
            delegates.add(new AgentTreePlan.Delegate(planned.name(), planned.description(), false));
        }
        for (BaseAgent remote : remoteAgents) {
            subAgents.add(remote);
            delegates.add(new AgentTreePlan.Delegate(remote.name(), remote.description(), true));
        }
        return LlmAgent.builder()
                .name(AgentTreePlan.ORCHESTRATOR)
                .description("Lango orchestrator: delegates tasks to specialised agents")
                .model(model)
                .instruction(fixed(prompts.orchestrator(AgentTreePlan.orchestratorRules(delegates, maxDelegationRounds))))
                .subAgents(subAgents)
                .build();
    }

    /** An instruction used as written: ADK would otherwise read "{name}" in it as a state placeholder. */
    private static Instruction fixed(String text) {
        return new Instruction.Provider(context -> Single.just(text));
    }
}
