package ai.lango.knowledge;

/** A CDI event: the entry was saved, new ({@code created}) or replacing its owner's one under its key. */
public record KnowledgeSaved(KnowledgeEntry entry, boolean created) {
}
