/**
 * Approval of tool calls by a person: the policy that decides which calls ask (from each tool's
 * declared {@link ai.lango.tool.Safety}), and the stored requests and decisions — bound to user,
 * session, call, tool and arguments, answered once, run once, expired after the timeout — that are
 * also the audit list. The agent layer asks here before a tool runs; the application layer
 * ({@code ai.lango.turns}) decides here what an edge's answer or the timeout says.
 */
package ai.lango.approval;
