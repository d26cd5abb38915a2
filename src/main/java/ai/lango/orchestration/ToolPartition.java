package ai.lango.orchestration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which sub-agent gets which tool, by name prefix (spec 002): researcher prefixes first, then
 * memory prefixes, then executor prefixes, and everything unmatched to the executor. The planner
 * has no tools and is always created; the others only when they get a tool.
 */
public final class ToolPartition {

    public static final String EXECUTOR = "executor";
    public static final String RESEARCHER = "researcher";
    public static final String PLANNER = "planner";
    public static final String MEMORY_MANAGER = "memory-manager";

    static final List<String> RESEARCHER_PREFIXES = List.of("search_", "rag_", "graph_", "save_knowledge", "save_learning");
    static final List<String> MEMORY_PREFIXES = List.of("memory_", "observe_", "reflect_");
    static final List<String> EXECUTOR_PREFIXES = List.of("exec", "fs_", "browser_", "crypto_", "skill_", "payment_");

    private ToolPartition() {
    }

    /** The sub-agent's name for a tool. */
    public static String roleOf(String tool) {
        if (matches(tool, RESEARCHER_PREFIXES)) {
            return RESEARCHER;
        }
        if (matches(tool, MEMORY_PREFIXES)) {
            return MEMORY_MANAGER;
        }
        return EXECUTOR; // executor prefixes, and every unmatched tool
    }

    /**
     * Sub-agent name → its tools, in the order executor, researcher, planner, memory-manager; a
     * sub-agent without tools is absent, except the planner.
     */
    public static Map<String, List<String>> partition(List<String> tools) {
        Map<String, List<String>> byRole = new LinkedHashMap<>();
        for (String role : List.of(EXECUTOR, RESEARCHER, PLANNER, MEMORY_MANAGER)) {
            byRole.put(role, new ArrayList<>());
        }
        tools.forEach(tool -> byRole.get(roleOf(tool)).add(tool));
        byRole.entrySet().removeIf(e -> e.getValue().isEmpty() && !e.getKey().equals(PLANNER));
        byRole.replaceAll((role, list) -> List.copyOf(list));
        return byRole;
    }

    private static boolean matches(String tool, List<String> prefixes) {
        return prefixes.stream().anyMatch(tool::startsWith);
    }
}
