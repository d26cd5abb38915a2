package ai.lango.orchestration;

import ai.lango.tool.ToolFamily;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * What each local sub-agent is for, in the words the orchestrator and the sub-agent itself are
 * given. No text here names a tool: a tool word in an instruction is a name a model may try to
 * transfer to.
 */
public enum SubAgentRole {
    EXECUTOR(ToolPartition.EXECUTOR,
            "Carries out actions",
            "tasks that must be done: running commands, creating, reading, changing or removing files",
            "You carry out actions with your tools. Do the task you were given, step by step, and check that it worked.",
            "When you are done, report the results clearly: what you did and what came out of it, including any error."),
    RESEARCHER(ToolPartition.RESEARCHER,
            "Looks up information",
            "finding information: searching knowledge, documents and what was learned before",
            "You look up information with your tools. Search thoroughly and prefer what the sources say over guesses.",
            "When you are done, summarize your findings clearly, and say where each one came from."),
    PLANNER(ToolPartition.PLANNER,
            "Breaks complex tasks into clear, ordered plans",
            "working out a plan for a complex task with several steps, before anything is done",
            "You plan. You have no tools: think the task through and split it into small, ordered steps that another agent can carry out.",
            "When you are done, present the plan for review as a numbered list of steps, with anything that is still unclear."),
    MEMORY_MANAGER(ToolPartition.MEMORY_MANAGER,
            "Manages long-term memory",
            "storing and recalling memories of earlier conversations",
            "You manage memory with your tools: store what should be remembered and recall what was stored.",
            "When you are done, report what was stored or retrieved.");

    private final String agentName;
    private final String summary;
    private final String delegateWhen;
    private final String task;
    private final String reporting;

    SubAgentRole(String agentName, String summary, String delegateWhen, String task, String reporting) {
        this.agentName = agentName;
        this.summary = summary;
        this.delegateWhen = delegateWhen;
        this.task = task;
        this.reporting = reporting;
    }

    public static Optional<SubAgentRole> named(String agentName) {
        return Arrays.stream(values()).filter(role -> role.agentName.equals(agentName)).findFirst();
    }

    public String agentName() {
        return agentName;
    }

    /** What the role is for, as the orchestrator's delegation rule puts it. */
    public String delegateWhen() {
        return delegateWhen;
    }

    /** The description other agents see: the role and, when it has tools, their capabilities. */
    public String description(Collection<ToolFamily> families) {
        return families.isEmpty() ? summary : summary + ": " + Capabilities.describe(families);
    }

    /** The sub-agent's own instruction: who it is, what it does and how it reports back. */
    public String instruction(String orchestratorName) {
        return "You are " + agentName + ", one agent of a team led by " + orchestratorName + ". " + task + "\n"
                + reporting + "\n"
                + "If the task is not yours to do, hand it back to " + orchestratorName + " without doing anything.";
    }
}
