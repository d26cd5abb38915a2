package ai.lango.knowledge;

/** A CDI event: the entry under this key of this owner ({@link KnowledgeEntry#SHARED}: shared) was deleted. */
public record KnowledgeDeleted(String owner, String key) {
}
