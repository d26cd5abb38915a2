/**
 * The bridge to Google's Agent Development Kit, and the only place that imports ADK, genai or
 * RxJava. Split as ADK is: {@code sessions} (the JPA session service), {@code models} (the model
 * adapter over Lango's providers), {@code tools} (Lango's tools as ADK tools), {@code agents} (the
 * agent tree, the delegation guard, remote agents), {@code runner} (turn limit, retries, streaming,
 * metrics), {@code memory} (ADK's memory service over Lango's). This package holds the service
 * the edges call ({@code AgentService}), which speaks Lango's {@code turn} types and renders
 * ADK's own JSON for the ADK-compatible API. The concepts never refer back up to it; it knows
 * memory, learning and knowledge only through their plug-in points (Toolset, ContextSource,
 * LearnedFixes, Recall, TurnCompleted).
 */
package ai.lango.adk;
