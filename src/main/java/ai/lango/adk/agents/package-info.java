/**
 * The agent tree ADK runs: one agent, or the orchestrator over its sub-agents and remote A2A
 * agents; the plugin that refuses transfers to agents that do not exist and bounds delegation
 * rounds. Built from the plan ({@code orchestration}), the prompts, the adapted model and tools, and A2A's
 * client for the remote agents.
 */
package ai.lango.adk.agents;
