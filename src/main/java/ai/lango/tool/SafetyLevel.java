package ai.lango.tool;

/** How much harm a tool can do: reading is safe, writing moderate, running commands or deleting dangerous. */
public enum SafetyLevel { SAFE, MODERATE, DANGEROUS }
