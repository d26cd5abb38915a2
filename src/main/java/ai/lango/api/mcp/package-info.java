/**
 * Edge: Lango as an MCP server at /mcp (streamable HTTP), its agent offered as tools to MCP
 * clients (IDEs, desktop assistants, the MCP SDKs) with a user's credential.
 */
package ai.lango.api.mcp;
