/** /api/usage: a user's own model usage, its cost and where they stand against their budgets. */
package ai.lango.api.usage;
