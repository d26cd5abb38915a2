/**
 * What model calls cost and who may spend more: every call's tokens (as the provider reported them, or estimated
 * and marked so) with its user, session, agent, model and purpose in lango_usage — the agent's calls written with
 * the turn's own commits, the background ones on their own — its cost by the price table, the per-user budgets
 * checked before a turn and before each model call, and the sums the usage API reads.
 */
package ai.lango.usage;
