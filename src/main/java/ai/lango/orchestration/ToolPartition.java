package ai.lango.orchestration;

import ai.lango.tool.ToolFamily;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which sub-agent gets which tool: the one its family names (search, retrieval, graph and saving
 * tools the researcher, memory tools the memory manager, actions the executor). The planner has no
 * tools and is always created; the others only when they get a tool.
 */
public final class ToolPartition {

    public static final String EXECUTOR = "executor";
    public static final String RESEARCHER = "researcher";
    public static final String PLANNER = "planner";
    public static final String MEMORY_MANAGER = "memory-manager";

    private ToolPartition() {
    }

    /** The sub-agent's name for a family's tools. */
    public static String holderOf(ToolFamily family) {
        return switch (family.holder()) {
            case EXECUTOR -> EXECUTOR;
            case RESEARCHER -> RESEARCHER;
            case MEMORY_MANAGER -> MEMORY_MANAGER;
        };
    }

    /**
     * Sub-agent name → its tools (tool name → family, in the agent's order), in the order executor,
     * researcher, planner, memory-manager; a sub-agent without tools is absent, except the planner.
     */
    public static Map<String, Map<String, ToolFamily>> partition(Map<String, ToolFamily> tools) {
        Map<String, Map<String, ToolFamily>> byRole = new LinkedHashMap<>();
        for (String role : List.of(EXECUTOR, RESEARCHER, PLANNER, MEMORY_MANAGER)) {
            byRole.put(role, new LinkedHashMap<>());
        }
        tools.forEach((tool, family) -> byRole.get(holderOf(family)).put(tool, family));
        byRole.entrySet().removeIf(e -> e.getValue().isEmpty() && !e.getKey().equals(PLANNER));
        return byRole;
    }

    /** The tool names of a partition's entry, in order. */
    static List<String> names(Map<String, ToolFamily> tools) {
        return List.copyOf(new ArrayList<>(tools.keySet()));
    }
}
