/**
 * The engine: the bridge to Google's Agent Development Kit, and the only place that imports ADK, genai or
 * RxJava. Split as ADK is: {@code sessions} (the JPA session service and a run's view of it), {@code models}
 * (the model adapter over Lango's providers), {@code tools} (Lango's tools as ADK tools), {@code agents} (the
 * agent tree, the delegation guard, remote agents), {@code runner} (turn limit, deadline, retries, streaming,
 * metrics), {@code memory} and {@code artifacts} (ADK's services over Lango's). This package holds {@code Agents}
 * (the agent built once at start, a blueprint of each turn's tree) and {@code TurnEngine} (runs a turn with its
 * {@code TurnContext}, speaking Lango's {@code turn} types), which the application layer ({@code ai.lango.turns})
 * calls, and {@code AdkSessions} and {@code AdkArtifacts}, ADK's own JSON for the ADK-compatible API. The
 * concepts never refer back up to it; it knows memory, learning, knowledge, retrieval and the graph only through
 * their plug-in points (Toolset, ContextSource, LearnedFixes, Recall, TurnCompleted).
 */
package ai.lango.adk;
