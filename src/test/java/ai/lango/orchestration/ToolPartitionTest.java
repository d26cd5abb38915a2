package ai.lango.orchestration;

import static ai.lango.tool.ToolFamily.BROWSER;
import static ai.lango.tool.ToolFamily.CRYPTO;
import static ai.lango.tool.ToolFamily.EXEC;
import static ai.lango.tool.ToolFamily.FILES;
import static ai.lango.tool.ToolFamily.GRAPH;
import static ai.lango.tool.ToolFamily.KNOWLEDGE;
import static ai.lango.tool.ToolFamily.LEARNING;
import static ai.lango.tool.ToolFamily.LEARNING_STATS;
import static ai.lango.tool.ToolFamily.MEMORY;
import static ai.lango.tool.ToolFamily.PAYMENT;
import static ai.lango.tool.ToolFamily.RAG;
import static ai.lango.tool.ToolFamily.SEARCH;
import static ai.lango.tool.ToolFamily.SECRETS;
import static ai.lango.tool.ToolFamily.SKILLS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool partitioning by the family each tool declares, and capability-based sub-agent descriptions. */
class ToolPartitionTest {

    /** Tool name, family, name, family, … in order. */
    static Map<String, ToolFamily> tools(Object... nameAndFamily) {
        Map<String, ToolFamily> tools = new LinkedHashMap<>();
        for (int i = 0; i < nameAndFamily.length; i += 2) {
            tools.put((String) nameAndFamily[i], (ToolFamily) nameAndFamily[i + 1]);
        }
        return tools;
    }

    private static Map<String, List<String>> names(Map<String, Map<String, ToolFamily>> partition) {
        Map<String, List<String>> names = new LinkedHashMap<>();
        partition.forEach((agent, tools) -> names.put(agent, List.copyOf(tools.keySet())));
        return names;
    }

    @Test
    void toolsArePartitionedByTheirFamily() {
        assertEquals(Map.of("executor", List.of("exec_run", "custom_tool"), "researcher", List.of("search_docs"),
                        "planner", List.of(), "memory-manager", List.of("memory_save")),
                names(ToolPartition.partition(tools("exec_run", EXEC, "search_docs", SEARCH, "memory_save", MEMORY,
                        "custom_tool", new ToolFamily("custom actions", ToolFamily.Holder.EXECUTOR)))));
    }

    @Test
    void aToolGoesByItsFamilyNotByItsName() {
        assertEquals(List.of("search_everything"), names(ToolPartition.partition(tools("search_everything",
                new ToolFamily("tools of the MCP server \"search\"", ToolFamily.Holder.EXECUTOR)))).get("executor"));
    }

    @Test
    void graphToolsAreRoutedToTheResearcher() {
        assertEquals(List.of("graph_traverse", "graph_query"),
                names(ToolPartition.partition(tools("graph_traverse", GRAPH, "graph_query", GRAPH))).get("researcher"));
    }

    @Test
    void knowledgeAndLearningToolsGoToTheResearcherAndMemoryToolsToTheMemoryManager() {
        var partition = names(ToolPartition.partition(tools("save_knowledge", KNOWLEDGE, "search_knowledge", SEARCH,
                "save_learning", LEARNING, "search_learnings", SEARCH, "learning_stats", LEARNING_STATS,
                "memory_list_observations", MEMORY, "memory_list_reflections", MEMORY, "loadMemory", MEMORY)));
        assertEquals(List.of("save_knowledge", "search_knowledge", "save_learning", "search_learnings", "learning_stats"),
                partition.get("researcher"));
        assertEquals(List.of("memory_list_observations", "memory_list_reflections", "loadMemory"),
                partition.get("memory-manager"));
    }

    @Test
    void everyFamilyNamesTheSubAgentOfArchitectureMd() {
        for (ToolFamily family : List.of(EXEC, FILES, BROWSER, CRYPTO, SKILLS, PAYMENT, SECRETS)) {
            assertEquals("executor", ToolPartition.holderOf(family), family.capability());
        }
        for (ToolFamily family : List.of(SEARCH, RAG, GRAPH, KNOWLEDGE, LEARNING, LEARNING_STATS)) {
            assertEquals("researcher", ToolPartition.holderOf(family), family.capability());
        }
        assertEquals("memory-manager", ToolPartition.holderOf(MEMORY));
    }

    @Test
    void paymentToolsAreDescribedAsBlockchainPayments() {
        assertEquals("blockchain payments (USDC on Base)", Capabilities.describe(List.of(PAYMENT, PAYMENT)));
    }

    @Test
    void secretsCryptoAndSkillToolsAreDescribedByTheirCapabilities() {
        assertEquals("skill management", Capabilities.describe(List.of(SKILLS, SKILLS)));
        assertEquals("secret management, cryptography", Capabilities.describe(List.of(SECRETS, CRYPTO)));
    }

    @Test
    void allFourSubAgentsWhenEveryRoleHasATool() {
        assertEquals(List.of("executor", "researcher", "planner", "memory-manager"), List.copyOf(
                ToolPartition.partition(tools("exec_shell", EXEC, "search_web", SEARCH, "memory_store", MEMORY)).keySet()));
    }

    @Test
    void executorAndPlannerOnlyWhenOnlyExecutorTools() {
        assertEquals(List.of("executor", "planner"),
                List.copyOf(ToolPartition.partition(tools("exec_shell", EXEC, "fs_read", FILES)).keySet()));
    }

    @Test
    void noToolsMeansThePlannerAlone() {
        assertEquals(Map.of("planner", List.of()), names(ToolPartition.partition(Map.of())));
    }

    @Test
    void executorDescriptionUsesCapabilitiesNotToolNames() {
        String description = Capabilities.describe(List.of(EXEC, FILES, BROWSER));
        assertEquals("command execution, file operations, web browsing", description);
        assertFalse(description.contains("exec_"));
        assertFalse(description.contains("browser_"));
    }

    @Test
    void duplicateCapabilitiesAppearOnce() {
        assertEquals("command execution", Capabilities.describe(List.of(EXEC, EXEC)));
    }
}
