/**
 * Tools the agent may call, in plain Java: the Tool and Toolset interfaces (the plug-in point for
 * tools), the workspace, the file tools and exec, and the ToolRunner (timeouts, errors as results,
 * secrets masked). Imports config.
 */
package ai.lango.tool;
