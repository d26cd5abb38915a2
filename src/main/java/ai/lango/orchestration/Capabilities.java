package ai.lango.orchestration;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a set of tools lets an agent do, in words rather than tool names, so descriptions and the
 * orchestrator's instruction never carry a raw tool name a model could mistake for an agent.
 */
public final class Capabilities {

    private Capabilities() {
    }

    public static String of(String tool) {
        return ToolFamilies.of(tool).map(ToolFamilies.Family::capability).orElse(ToolFamilies.GENERAL);
    }

    /** The capabilities of the tools, each once, in first-seen order, joined with ", ". */
    public static String describe(List<String> tools) {
        Set<String> capabilities = new LinkedHashSet<>();
        tools.forEach(tool -> capabilities.add(of(tool)));
        return String.join(", ", capabilities);
    }
}
