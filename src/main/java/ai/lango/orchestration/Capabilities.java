package ai.lango.orchestration;

import ai.lango.tool.ToolFamily;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a set of tools lets an agent do, in words rather than tool names, so descriptions and the
 * orchestrator's instruction never carry a raw tool name a model could mistake for an agent.
 */
public final class Capabilities {

    private Capabilities() {
    }

    /** The capabilities of the tools' families, each once, in first-seen order, joined with ", ". */
    public static String describe(Collection<ToolFamily> families) {
        Set<String> capabilities = new LinkedHashSet<>();
        families.forEach(family -> capabilities.add(family.capability()));
        return String.join(", ", capabilities);
    }
}
