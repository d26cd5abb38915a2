/**
 * ADK's memory service over Lango's durable memory, reached through the Recall plug-in point. May
 * import ADK and turn.
 */
package ai.lango.adk.memory;
