package ai.lango.orchestration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec 002 "Tool partitioning by prefix" and "Capability-based sub-agent descriptions", REFERENCE.md vectors. */
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
    void unmatchedToolsDefaultToTheExecutor() {
        assertEquals("executor", ToolPartition.roleOf("custom_tool"));
    }

    @Test
    void paymentToolsGoToTheExecutorAsBlockchainPayments() {
        assertEquals("executor", ToolPartition.roleOf("payment_send"));
        assertEquals("blockchain payments (USDC on Base)", Capabilities.describe(List.of("payment_send", "payment_balance")));
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
