/**
 * The multi-agent plan as pure logic: which sub-agent gets which tool, capabilities in words, the
 * orchestrator's and sub-agents' instructions. No container, no ADK; unit-tested alone.
 */
package ai.lango.orchestration;
