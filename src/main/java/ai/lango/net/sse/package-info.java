/**
 * Server-sent events: the one reader (the model providers' streams, the MCP client's transports,
 * the A2A client's streams) and the one writer (the edges' {@code run_sse}, A2A and MCP streams).
 */
package ai.lango.net.sse;
