/**
 * ADK's model interface over Lango's providers: requests converted to the provider's terms (tool
 * calls paired, never opening with the model's words), streamed answers as partial responses, and
 * provider calls retried by MicroProfile Fault Tolerance. May import ADK and provider.
 */
package ai.lango.adk.models;
