/**
 * The agent tree ADK runs: one agent, or the orchestrator over its sub-agents and remote A2A
 * agents; the plugin that refuses transfers to agents that do not exist and bounds delegation
 * rounds. May import ADK, orchestration (the plan), prompt and a2a.
 */
package ai.lango.adk.agents;
