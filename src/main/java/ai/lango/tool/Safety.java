package ai.lango.tool;

/**
 * How much harm a tool's call can do, declared by the tool itself; the approval policy decides from
 * it which calls wait for a person (lango.security.approval.*).
 */
public enum Safety {
    /** Reads, or writes only what the agent keeps for itself (knowledge, memory, learnings). */
    SAFE,
    /** Changes the user's files or state, recoverably: writing, editing, creating. */
    MODERATE,
    /** Cannot be taken back or reaches beyond the workspace: deleting, running commands, spending, typing secrets. */
    DANGEROUS
}
