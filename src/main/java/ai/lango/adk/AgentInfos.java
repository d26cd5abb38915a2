package ai.lango.adk;

import ai.lango.turn.AgentInfo;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.LlmAgent;
import com.google.adk.tools.BaseTool;
import java.util.List;

/** ADK's agent tree as Lango's {@link AgentInfo}: names, descriptions, tools, sub-agents. */
final class AgentInfos {

    private AgentInfos() {
    }

    static AgentInfo of(BaseAgent agent) {
        List<String> tools = agent instanceof LlmAgent llm
                ? llm.tools().blockingGet().stream().map(BaseTool::name).toList() : List.of();
        return new AgentInfo(agent.name(), agent.description() == null ? "" : agent.description(), tools,
                agent.subAgents().stream().map(AgentInfos::of).toList(), !(agent instanceof LlmAgent));
    }
}
