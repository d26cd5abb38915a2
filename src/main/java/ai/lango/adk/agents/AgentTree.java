package ai.lango.adk.agents;

import ai.lango.adk.tools.ToolCatalog;
import ai.lango.orchestration.AgentTreePlan;
import ai.lango.orchestration.Capabilities;
import ai.lango.prompt.PromptBuilder;
import ai.lango.prompt.PromptContext;
import ai.lango.tool.ToolFamily;
import ai.lango.turn.Names;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.Instruction;
import com.google.adk.agents.LlmAgent;
import com.google.adk.agents.ReadonlyContext;
import com.google.adk.models.BaseLlm;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.BaseToolset;
import com.google.genai.types.Content;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds the agent the runner runs: one agent with every tool, or the orchestrator
 * with no tools of its own over the sub-agents of {@link AgentTreePlan}, each tool given to
 * exactly one of them, and remote agents appended.
 */
public final class AgentTree {

    private AgentTree() {
    }

    public static BaseAgent single(BaseLlm model, List<BaseTool> tools, PromptBuilder prompts,
                                   Function<PromptContext, String> sections) {
        return single(model, tools, List.of(), prompts, sections);
    }

    /** The single agent, with toolsets of tools made at run time (MCP servers') besides its own tools. */
    public static BaseAgent single(BaseLlm model, List<BaseTool> tools, List<BaseToolset> madeAtRunTime, PromptBuilder prompts,
                                   Function<PromptContext, String> sections) {
        List<ToolFamily> families = new ArrayList<>(tools.stream().map(ToolCatalog::familyOf).toList());
        if (!madeAtRunTime.isEmpty()) {
            families.add(ToolFamily.MCP);
        }
        List<Object> all = new ArrayList<>(tools);
        all.addAll(madeAtRunTime);
        return LlmAgent.builder()
                .name(Names.SINGLE_AGENT)
                .description(Names.SINGLE_AGENT_DESCRIPTION)
                .model(forAgent(model, Names.SINGLE_AGENT))
                .instruction(instruction(prompts.singleAgent(Capabilities.describe(families)), sections))
                .tools(all)
                .build();
    }

    public static BaseAgent orchestrator(BaseLlm model, List<BaseTool> tools, List<BaseAgent> remoteAgents,
                                         PromptBuilder prompts, int maxDelegationRounds,
                                         Function<PromptContext, String> sections) {
        return orchestrator(model, tools, List.of(), remoteAgents, prompts, maxDelegationRounds, sections);
    }

    /** The orchestrator; toolsets of tools made at run time (MCP servers') go to the sub-agent of their family. */
    public static BaseAgent orchestrator(BaseLlm model, List<BaseTool> tools, List<BaseToolset> madeAtRunTime,
                                         List<BaseAgent> remoteAgents, PromptBuilder prompts, int maxDelegationRounds,
                                         Function<PromptContext, String> sections) {
        Map<String, Object> byName = new LinkedHashMap<>(tools.stream().collect(Collectors.toMap(BaseTool::name,
                Function.identity())));
        List<BaseAgent> subAgents = new ArrayList<>();
        List<AgentTreePlan.Delegate> delegates = new ArrayList<>();
        Map<String, ToolFamily> families = new LinkedHashMap<>();
        tools.forEach(tool -> families.put(tool.name(), ToolCatalog.familyOf(tool)));
        for (int i = 0; i < madeAtRunTime.size(); i++) {
            // A toolset stands in the plan under a name no tool has: its tools are named only at run time.
            families.put("(tools made at run time " + i + ")", ToolFamily.MCP);
            byName.put("(tools made at run time " + i + ")", madeAtRunTime.get(i));
        }
        for (AgentTreePlan.SubAgent planned : AgentTreePlan.subAgents(families)) {
            subAgents.add(LlmAgent.builder()
                    .name(planned.name())
                    .description(planned.description())
                    .model(forAgent(model, planned.name()))
                    .instruction(instruction(prompts.subAgent(planned.instruction(), !planned.tools().isEmpty()), sections))
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
                .name(Names.ORCHESTRATOR)
                .description("Lango orchestrator: delegates tasks to specialised agents")
                .model(forAgent(model, Names.ORCHESTRATOR))
                .instruction(instruction(prompts.orchestrator(AgentTreePlan.orchestratorRules(delegates, maxDelegationRounds)),
                        sections))
                .subAgents(subAgents)
                .build();
    }

    /** The model as one agent's: the usage of its calls is that agent's. */
    private static BaseLlm forAgent(BaseLlm model, String agent) {
        return model instanceof ai.lango.adk.models.ModelAdapter adapter ? adapter.forAgent(agent) : model;
    }

    /**
     * The fixed prompt and, at each model call, the per-turn sections for this session and the
     * user's message. A provider, not a text: ADK would read "{name}" in a text as a state placeholder.
     */
    private static Instruction instruction(String fixed, Function<PromptContext, String> sections) {
        return new Instruction.Provider(context -> Single.fromCallable(() -> fixed + sections.apply(
                new PromptContext(context.userId(), context.sessionId(), userText(context)))));
    }

    private static String userText(ReadonlyContext context) {
        StringBuilder text = new StringBuilder();
        context.userContent().flatMap(Content::parts).orElse(List.of()).forEach(part -> part.text().ifPresent(text::append));
        return text.toString();
    }

    /** No per-turn sections: the fixed prompt alone. */
    public static final Function<PromptContext, String> NO_SECTIONS = context -> "";
}
