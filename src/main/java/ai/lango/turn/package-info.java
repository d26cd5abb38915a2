/**
 * The vocabulary the edges and the services share, in plain Java: a turn's request and events,
 * the turn itself as every part of it sees it ({@code TurnContext}, with its {@code TurnAbort} and
 * {@code TurnMeter}), a model call's usage, the session's key, the agent tree's description, the
 * after-turn event, the learned-fix and recall lookups, failures and names. Imports nothing but the JDK.
 */
package ai.lango.turn;
