/**
 * What the agent learns from tool errors: error patterns and categories, learnings with a
 * confidence that corroboration raises and failure lowers, the learned-fix lookup self-correction
 * uses, and the learning tools. Plugs in through Toolset, ContextSource, LearnedFixes, Corpus and
 * TurnCompleted; never imports ADK.
 */
package ai.lango.learning;
