/**
 * The HTTP client base of every outbound peer — the model providers, the MCP transports, the A2A
 * client, the chain's RPC, the remote embedders, the egress-guarded client: how a client is built,
 * bodies bounded by time ({@link ai.lango.net.http.IdleTimeoutBody}) and size ({@link
 * ai.lango.net.http.LimitedBody}), excerpts of what a peer said with its secrets scrubbed, and the
 * trace context for a peer trusted with it.
 */
package ai.lango.net.http;
