/**
 * Evaluation: eval sets in ADK's format (cases of invocations: the user's message, the tool calls expected, the
 * agents handed over to, the approvals asked and answered, the final answer), made from stored sessions or loaded
 * from the eval folder; replayed against the agent as configured now and scored by ADK's metrics and Lango's own.
 */
package ai.lango.eval;
