package ai.lango.orchestration;

import static ai.lango.tool.ToolFamily.BROWSER;
import static ai.lango.tool.ToolFamily.CRYPTO;
import static ai.lango.tool.ToolFamily.EXEC;
import static ai.lango.tool.ToolFamily.FILES;
import static ai.lango.tool.ToolFamily.GRAPH;
import static ai.lango.tool.ToolFamily.KNOWLEDGE;
import static ai.lango.tool.ToolFamily.LEARNING;
import static ai.lango.tool.ToolFamily.MEMORY;
import static ai.lango.tool.ToolFamily.PAYMENT;
import static ai.lango.tool.ToolFamily.RAG;
import static ai.lango.tool.ToolFamily.SEARCH;
import static ai.lango.tool.ToolFamily.SECRETS;
import static ai.lango.tool.ToolFamily.SKILLS;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.tool.ToolFamily;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sub-agent descriptions and instructions, the orchestrator's delegation rules. */
class AgentTreePlanTest {

    /** Every tool name of the system Lango ports, with its family; none of the names may reach an instruction. */
    static final Map<String, ToolFamily> ALL_TOOLS = ToolPartitionTest.tools("exec", EXEC, "exec_bg", EXEC, "exec_status", EXEC,
            "exec_stop", EXEC, "fs_read", FILES, "fs_write", FILES, "fs_edit", FILES, "fs_list", FILES, "fs_mkdir", FILES,
            "fs_delete", FILES, "browser_navigate", BROWSER, "browser_action", BROWSER, "browser_screenshot", BROWSER,
            "crypto_hash", CRYPTO, "crypto_encrypt", CRYPTO, "crypto_decrypt", CRYPTO, "crypto_sign", CRYPTO, "crypto_keys", CRYPTO,
            "secrets_store", SECRETS, "secrets_get", SECRETS, "secrets_list", SECRETS, "secrets_delete", SECRETS,
            "list_skills", SKILLS, "create_skill", SKILLS, "import_skill", SKILLS, "search_knowledge", SEARCH,
            "save_knowledge", KNOWLEDGE, "search_learnings", SEARCH, "save_learning", LEARNING, "rag_retrieve", RAG,
            "graph_traverse", GRAPH, "graph_query", GRAPH, "memory_list_observations", MEMORY, "memory_list_reflections", MEMORY,
            "payment_balance", PAYMENT, "payment_send", PAYMENT, "payment_history", PAYMENT, "payment_limits", PAYMENT);

    private static List<AgentTreePlan.Delegate> delegates(List<AgentTreePlan.SubAgent> agents) {
        return agents.stream().map(a -> new AgentTreePlan.Delegate(a.name(), a.description(), false)).toList();
    }

    private static String rulesFor(Map<String, ToolFamily> tools) {
        return AgentTreePlan.orchestratorRules(delegates(AgentTreePlan.subAgents(tools)), 10);
    }

    @Test
    void allFourSubAgentsAreCreatedWhenEveryRoleHasTools() {
        assertEquals(List.of("executor", "researcher", "planner", "memory-manager"),
                AgentTreePlan.subAgents(ALL_TOOLS).stream().map(AgentTreePlan.SubAgent::name).toList());
    }

    @Test
    void memoryManagerIsNotCreatedWithoutMemoryTools() {
        assertEquals(List.of("executor", "planner"), AgentTreePlan.subAgents(ToolPartitionTest.tools("exec", EXEC, "fs_read", FILES))
                .stream()
                .map(AgentTreePlan.SubAgent::name).toList());
    }

    @Test
    void onlyThePlannerIsCreatedWithoutTools() {
        List<AgentTreePlan.SubAgent> agents = AgentTreePlan.subAgents(Map.of());
        assertEquals(List.of("planner"), agents.stream().map(AgentTreePlan.SubAgent::name).toList());
        assertEquals(List.of(), agents.get(0).tools());
    }

    @Test
    void eachToolGoesToExactlyOneSubAgent() {
        List<String> assigned = AgentTreePlan.subAgents(ALL_TOOLS).stream().flatMap(a -> a.tools().stream()).toList();
        assertEquals(ALL_TOOLS.size(), assigned.size());
        assertEquals(ALL_TOOLS.keySet(), java.util.Set.copyOf(assigned));
    }

    @Test
    void executorDescriptionUsesCapabilitiesNotToolNames() {
        AgentTreePlan.SubAgent executor = AgentTreePlan.subAgents(ToolPartitionTest.tools("exec_shell", EXEC, "fs_read", FILES,
                "browser_navigate", BROWSER)).get(0);
        assertTrue(executor.description().contains("command execution, file operations, web browsing"));
        assertFalse(executor.description().contains("exec_shell"));
        assertFalse(executor.description().contains("browser_navigate"));
    }

    @Test
    void toolRequiringTasksMustBeDelegatedAndTheOrchestratorHasNoTools() {
        String rules = rulesFor(ALL_TOOLS);
        assertTrue(rules.contains("NO tools of your own"));
        assertTrue(rules.contains("MUST be delegated"));
    }

    @Test
    void delegationRulesNameTheRoleOfEachSubAgent() {
        String rules = rulesFor(ALL_TOOLS);
        assertAll(
                () -> assertTrue(rules.contains("tasks that must be done: running commands, creating, reading, changing or removing files: executor")),
                () -> assertTrue(rules.contains("finding information: searching knowledge, documents and what was learned before: researcher")),
                () -> assertTrue(rules.contains("working out a plan for a complex task with several steps, before anything is done: planner")),
                () -> assertTrue(rules.contains("storing and recalling memories of earlier conversations: memory-manager")));
    }

    @Test
    void instructionForbidsInventedNamesAndListsOnlyRegisteredAgents() {
        String rules = rulesFor(ALL_TOOLS);
        assertTrue(rules.contains("NEVER invent or abbreviate agent names"));
        assertTrue(rules.contains("The only valid agent names are: executor, researcher, planner, memory-manager."));
    }

    @Test
    void subAgentEntriesDescribeCapabilitiesNotRawToolNames() {
        String rules = rulesFor(ALL_TOOLS);
        assertTrue(rules.contains("- executor: Carries out actions: command execution, file operations"));
        for (String tool : ALL_TOOLS.keySet()) {
            assertFalse(rules.matches("(?s).*\\b" + tool + "\\b.*"), () -> "raw tool name " + tool + " in:\n" + rules);
        }
    }

    @Test
    void instructionHasNoWordsThatCouldPassForAgentNames() {
        String rules = rulesFor(ALL_TOOLS).toLowerCase();
        for (String word : List.of("browser", "exec", "crypto", "fs", "shell", "search agent", "memory agent", "transfer_to_agent")) {
            assertFalse(rules.matches("(?s).*\\b" + word + "\\b.*"), () -> "\"" + word + "\" in the instruction");
        }
    }

    @Test
    void onlyCreatedAgentsAreMentioned() {
        String rules = rulesFor(ToolPartitionTest.tools("exec_shell", EXEC));
        assertTrue(rules.contains("executor") && rules.contains("planner"));
        assertFalse(rules.contains("researcher"));
        assertFalse(rules.contains("memory-manager"));
    }

    @Test
    void simpleConversationIsAnsweredDirectly() {
        assertTrue(rulesFor(Map.of()).contains("Answer simple conversation yourself, without delegating: greetings"));
    }

    @Test
    void delegationRoundLimitAndBudgetGuidanceAreInTheInstruction() {
        String rules = AgentTreePlan.orchestratorRules(delegates(AgentTreePlan.subAgents(Map.of())), 7);
        assertTrue(rules.contains("at most 7 delegation rounds"));
        assertTrue(rules.contains("simple tasks 1-2 rounds, medium tasks 3-5, complex tasks 6-10"));
    }

    @Test
    void unsetDelegationRoundsDefaultToTen() {
        assertTrue(AgentTreePlan.orchestratorRules(delegates(AgentTreePlan.subAgents(Map.of())), 0)
                .contains("at most 10 delegation rounds"));
    }

    @Test
    void remoteAgentsAreListedWithTheirDescriptions() {
        List<AgentTreePlan.Delegate> delegates = new java.util.ArrayList<>(delegates(AgentTreePlan.subAgents(Map.of())));
        delegates.add(new AgentTreePlan.Delegate("weather-bot", "Tells the weather", true));
        String rules = AgentTreePlan.orchestratorRules(delegates, 10);
        assertTrue(rules.contains("- weather-bot: Tells the weather (a remote agent)"));
        assertTrue(rules.contains("The only valid agent names are: planner, weather-bot."));
    }

    @Test
    void executorInstructionAsksToReportResultsClearly() {
        assertTrue(instruction("executor").contains("report the results clearly"));
    }

    @Test
    void researcherInstructionAsksToSummarizeFindings() {
        assertTrue(instruction("researcher").contains("summarize your findings clearly"));
    }

    @Test
    void plannerInstructionAsksToPresentThePlanForReview() {
        assertTrue(instruction("planner").contains("present the plan for review"));
    }

    @Test
    void memoryManagerInstructionAsksToReportWhatWasStoredOrRetrieved() {
        assertTrue(instruction("memory-manager").contains("report what was stored or retrieved"));
    }

    private static String instruction(String agent) {
        return AgentTreePlan.subAgents(ALL_TOOLS).stream().filter(a -> a.name().equals(agent)).findFirst().orElseThrow()
                .instruction();
    }
}
