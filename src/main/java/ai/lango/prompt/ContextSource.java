package ai.lango.prompt;

import java.util.Optional;

/**
 * A per-turn section of the system prompt: the plug-in point for what the agent should know at
 * this moment (what the user taught it, known solutions, retrieved context, conversation memory).
 * Every CDI bean that implements it is asked at each model call, in {@link #order()}, and what it
 * renders is appended to the fixed prompt. A source keeps within its own token budget and renders
 * nothing rather than an empty header.
 */
public interface ContextSource {

    /** Knowledge the user saved comes first, then known solutions, retrieved context, memory last. */
    int USER_KNOWLEDGE = 10;
    int KNOWN_SOLUTIONS = 20;
    int RETRIEVED = 30;
    int GRAPH = 40;
    int MEMORY = 50;
    int SKILLS = 60;

    /** A short name for logs. */
    String name();

    /** Where the section goes among the others: lower first. */
    int order();

    /** The section for this turn, or empty when there is nothing to say. */
    Optional<String> section(PromptContext context);
}
