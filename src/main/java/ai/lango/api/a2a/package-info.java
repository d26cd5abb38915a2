/**
 * A2A 1.0 and 0.3 over JSON-RPC: the agent card, the endpoint (its streams as server-sent events), and the tasks A2A
 * callers start — a task is a turn (or a turn that waits for an answer), run through the application layer.
 */
package ai.lango.api.a2a;
