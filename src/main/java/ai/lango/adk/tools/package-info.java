/** Lango's tools as ADK tools: every enabled Toolset's tools, each adapted once, run by the ToolRunner. */
package ai.lango.adk.tools;
