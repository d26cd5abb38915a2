/**
 * Running a turn on ADK's Runner with Lango's rules: one turn at a time per session, the turn
 * limit, the answer's text collected once, one retry with a correction or a learned fix, events
 * handed on the moment they are emitted, turn metrics, and the threads turns run on.
 */
package ai.lango.adk.runner;
