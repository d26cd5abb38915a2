/**
 * The vocabulary the edges and the services share, in plain Java: a turn's request and events,
 * the agent tree's description, the after-turn event, the learned-fix lookup, failures and names.
 * Imports nothing but the JDK.
 */
package ai.lango.turn;
