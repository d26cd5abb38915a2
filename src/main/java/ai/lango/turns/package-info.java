/**
 * The application layer: what a turn is, written once for every edge. {@link ai.lango.turns.Turns} starts a turn (let
 * in by the caller's budgets and quotas, {@link ai.lango.turns.TurnAdmission}), answers a request for approval (by its
 * own user, let in before anything is decided), expires what nobody answered (one sweep) and stops a turn; each turn
 * gets its {@link ai.lango.turn.TurnContext} here and the engine hands it down. Edges translate their wire format
 * into these calls and back; a refusal is a {@link ai.lango.turns.TurnRefused} they answer in their own terms.
 * {@link ai.lango.turns.Resumes} resumes the turns a crash cut off, on this server or taken over from another, and
 * tells the user's sockets and the task's caller. {@link ai.lango.turns.ScheduledTurns} starts the turns of users'
 * schedules, one server per fire, as their owners.
 */
package ai.lango.turns;
