/**
 * The A2A protocol (v0.3, JSON-RPC): the wire model, the client that reads agent cards and sends
 * {@code message/send}, and the server logic that answers it. Plain Java over Jackson and
 * java.net.http; imports nothing of Lango but its own types, and no agent framework.
 */
package ai.lango.a2a;
