/**
 * Observational memory: observations and reflections that compress a session beyond its history
 * window, the observer and reflector that run after turns, the memory section of the prompt, and
 * the memory tools. Plugs in through Toolset, ContextSource, Recall, Corpus and TurnCompleted; never
 * imports ADK.
 */
package ai.lango.memory;
