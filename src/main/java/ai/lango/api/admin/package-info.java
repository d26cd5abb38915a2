/**
 * The admin API ({@code /api/admin/*}), one resource per route: sessions, agents, configuration, users and their
 * budgets, approvals, secrets and the vault, memory, knowledge, learnings, the graph, retrieval, skills, the
 * browser, payments and MCP servers. Administrators only, but for what a route says it lets a user see of their own.
 */
package ai.lango.api.admin;
