/**
 * JSON-RPC 2.0, the one codec of Lango's JSON-RPC peers: the MCP client ({@code ai.lango.mcp}), Lango's
 * MCP server ({@code ai.lango.api.mcp}), A2A both ways ({@code ai.lango.a2a}) and the chain's RPC
 * ({@code ai.lango.payment}). What each protocol adds (its methods, A2A's error codes, the HTTP status
 * an edge answers with) stays with it.
 */
package ai.lango.net.jsonrpc;
