package ai.lango.knowledge;

/** A CDI event: the entry under this key was deleted. */
public record KnowledgeDeleted(String key) {
}
