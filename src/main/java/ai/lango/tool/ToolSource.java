package ai.lango.tool;

import java.util.List;

/**
 * Tools made at run time (an MCP server's, whose tools come and go while Lango runs): the plug-in
 * point beside {@link Toolset}, asked at every model call for the tools offered to that turn's user.
 */
public interface ToolSource {

    /** A short name for logs, e.g. "mcp". */
    String name();

    /** The tools offered to {@code userId} now; empty when none is (yet). */
    List<Tool> tools(String userId);
}
