package ai.lango.tool;

import java.util.List;

/**
 * A family of tools and the condition under which it is on: the plug-in point for tools. Every
 * CDI bean that implements it contributes its tools to the agent when {@link #enabled()}; the
 * agent's tools are those of all enabled toolsets, in {@link #order()} (then by name).
 *
 * <p>In multi-agent mode a tool goes to the sub-agent its {@link ToolFamily} names. Name new tools
 * after their family all the same ({@code memory_}, {@code search_}, …): that is how people read them.
 */
public interface Toolset {

    /** A short name for logs, e.g. "fs". */
    String name();

    /** Whether the configuration turns these tools on. */
    boolean enabled();

    /** The tools; asked once, when the agent is built. */
    List<Tool> tools();

    /** Where these tools come among the agent's tools: lower first. */
    default int order() {
        return 100;
    }
}
