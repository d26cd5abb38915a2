package ai.lango.orchestration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool partitioning by prefix and capability-based sub-agent descriptions, with the ported system's vectors. */
class ToolPartitionTest {

    @Test
    void toolsArePartitionedByPrefixWithUnknownsToTheExecutor() {
        assertEquals(Map.of("executor", List.of("exec_run", "unknown_tool"), "researcher", List.of("search_docs"),
                        "planner", List.of(), "memory-manager", List.of("memory_save")),
                ToolPartition.partition(List.of("exec_run", "search_docs", "memory_save", "unknown_tool")));
    }

    @Test
    void graphToolsAreRoutedToTheResearcher() {
        assertEquals(List.of("graph_traverse", "graph_query"),
                ToolPartition.partition(List.of("graph_traverse", "graph_query")).get("researcher"));
        assertEquals(List.of("search_rag", "graph_node"),
                ToolPartition.partition(List.of("search_rag", "graph_node")).get("researcher"));
    }

    @Test
    void knowledgeAndLearningToolsGoToTheResearcherAndMemoryToolsToTheMemoryManager() {
        var partition = ToolPartition.partition(List.of("save_knowledge", "search_knowledge", "save_learning",
                "search_learnings", "learning_stats", "memory_list_observations", "memory_list_reflections", "loadMemory"));
        assertEquals(List.of("save_knowledge", "search_knowledge", "save_learning", "search_learnings", "learning_stats"),
                partition.get("researcher"));
        assertEquals(List.of("memory_list_observations", "memory_list_reflections", "loadMemory"),
                partition.get("memory-manager"));
    }

    @Test
    void unmatchedToolsDefaultToTheExecutor() {
        assertEquals("executor", ToolPartition.roleOf("custom_tool"));
    }

    @Test
    void paymentToolsGoToTheExecutorAsBlockchainPayments() {
        assertEquals("executor", ToolPartition.roleOf("payment_send"));
        assertEquals("blockchain payments (USDC on Base)", Capabilities.describe(List.of("payment_send", "payment_balance")));
    }

    @Test
    void secretsCryptoAndSkillToolsGoToTheExecutorUnderTheirCapabilities() {
        for (String tool : List.of("secrets_store", "crypto_sign", "list_skills", "load_skill", "load_skill_resource",
                "create_skill", "import_skill")) {
            assertEquals("executor", ToolPartition.roleOf(tool), tool);
        }
        assertEquals("skill management", Capabilities.describe(List.of("list_skills", "load_skill", "create_skill", "import_skill")));
        assertEquals("secret management, cryptography", Capabilities.describe(List.of("secrets_get", "crypto_hash")));
    }

    @Test
    void allFourSubAgentsWhenEveryRoleHasATool() {
        assertEquals(List.of("executor", "researcher", "planner", "memory-manager"), List.copyOf(
                ToolPartition.partition(List.of("exec_shell", "search_web", "memory_store", "custom_tool")).keySet()));
    }

    @Test
    void executorAndPlannerOnlyWhenOnlyExecutorTools() {
        assertEquals(List.of("executor", "planner"),
                List.copyOf(ToolPartition.partition(List.of("exec_shell", "custom_tool")).keySet()));
    }

    @Test
    void noToolsMeansThePlannerAlone() {
        assertEquals(Map.of("planner", List.of()), ToolPartition.partition(List.of()));
    }

    @Test
    void executorDescriptionUsesCapabilitiesNotToolNames() {
        String description = Capabilities.describe(List.of("exec_shell", "fs_read", "browser_navigate"));
        assertEquals("command execution, file operations, web browsing", description);
        assertFalse(description.contains("exec_shell"));
        assertFalse(description.contains("browser_navigate"));
    }

    @Test
    void duplicateCapabilitiesAppearOnce() {
        assertEquals("command execution", Capabilities.describe(List.of("exec_shell", "exec_run")));
    }

    @Test
    void unknownPrefixFallsBackToGeneralActions() {
        assertEquals("general actions", Capabilities.of("teleport"));
        assertTrue(Capabilities.describe(List.of("fs_read", "teleport")).endsWith("general actions"));
    }
}
