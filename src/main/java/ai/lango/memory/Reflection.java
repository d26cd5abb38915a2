package ai.lango.memory;

import java.time.Instant;

/** What the reflector folded into one text, of generation 1 (from observations) or more (from reflections). */
public record Reflection(long id, String content, int tokens, int generation, Instant createdAt, Long foldedInto) {
}
