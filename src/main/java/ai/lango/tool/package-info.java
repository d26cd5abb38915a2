/**
 * Tools the agent may call, in plain Java: the Tool and Toolset interfaces and ToolSource (the plug-in
 * points for tools), DeclaredTool and ToolFamily, the Caller (the turn a call is part of), the workspace,
 * and the ToolRunner (timeouts, errors as results, secret references resolved, secrets masked, the call
 * stopped with its turn); the file tools and exec are {@code tool.fs} and {@code tool.exec}. Imports
 * config, turn and masking.
 */
package ai.lango.tool;
