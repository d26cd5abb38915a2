/**
 * The evaluation edge: ADK's eval-set, eval-case, run and result routes as its dev UI and newer clients call them
 * ({@link ai.lango.api.eval.EvalResource}), and Lango's own for export, import, CI reports and cancelling runs
 * ({@link ai.lango.api.eval.LangoEvalResource}); both run through {@link ai.lango.api.eval.Evaluations}.
 */
package ai.lango.api.eval;
