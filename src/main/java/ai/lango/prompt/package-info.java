/**
 * System prompts: the fixed sections (config/prompts, overridable in the data directory) and the
 * per-turn sections of every ContextSource, rendered at each model call. Plain Java and CDI.
 */
package ai.lango.prompt;
