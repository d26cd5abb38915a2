/**
 * MCP servers as tools: the servers of {@code mcp.json} (the {@code mcpServers} file that Claude
 * Desktop, Cursor and VS Code share) over stdio (in exec's sandbox), streamable HTTP or legacy SSE,
 * each server's tools offered to the agent as {@code mcp_<server>_<tool>} under Lango's approvals,
 * secrets rules and limits. The client side of the Model Context Protocol; Lango's own MCP server is
 * the edge {@code ai.lango.api.mcp}.
 */
package ai.lango.mcp;
