/**
 * ADK's model interface over Lango's providers: requests converted to the provider's terms (tool
 * calls paired, never opening with the model's words), streamed answers as partial responses, and
 * provider calls retried by MicroProfile Fault Tolerance. Bound to one turn ({@code ModelAdapter.forTurn}),
 * a model's calls are masked for the turn's caller, metered for its user and stopped with it.
 */
package ai.lango.adk.models;
