/**
 * The evaluation edge: ADK's eval-set and eval-result routes, which ADK's dev UI calls.
 */
package ai.lango.api.eval;
