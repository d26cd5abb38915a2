package ai.lango.orchestration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which sub-agent gets which tool, by its family ({@link ToolFamilies}): search, retrieval,
 * graph and saving tools to the researcher, memory tools to the memory manager, everything else
 * to the executor. The planner
 * has no tools and is always created; the others only when they get a tool.
 */
public final class ToolPartition {

    public static final String EXECUTOR = "executor";
    public static final String RESEARCHER = "researcher";
    public static final String PLANNER = "planner";
    public static final String MEMORY_MANAGER = "memory-manager";

    private ToolPartition() {
    }

    /** The sub-agent's name for a tool. */
    public static String roleOf(String tool) {
        return ToolFamilies.of(tool).map(ToolFamilies.Family::role).orElse(EXECUTOR); // unmatched: the executor
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
}
