package ai.lango.knowledge;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a user taught the agent: whose it is ({@code owner}, a user's id, or {@link #SHARED}), a key
 * unique per owner, a category, the content, tags and where it came from.
 */
public record KnowledgeEntry(String owner, String key, String category, String content, List<String> tags, String source,
                             int useCount, Instant createdAt, Instant updatedAt) {

    /** The categories knowledge may have. */
    public static final List<String> CATEGORIES = List.of("rule", "definition", "preference", "fact", "pattern", "correction");

    /** The owner of what every user shares: written by an administrator, or promoted by one. */
    public static final String SHARED = ai.lango.security.Ownership.SHARED;

    public KnowledgeEntry {
        owner = owner == null ? SHARED : owner;
        // Tags are stored one per line: a tag is one line, never empty.
        tags = tags == null ? List.of() : tags.stream().map(t -> t.replace('\n', ' ').strip()).filter(t -> !t.isEmpty())
                .distinct().toList();
    }

    /** A new shared entry as an operator gives it. */
    public static KnowledgeEntry of(String key, String category, String content, List<String> tags, String source) {
        return new KnowledgeEntry(SHARED, key, category, content, tags, source, 0, null, null);
    }

    /** The same entry, belonging to {@code owner}. */
    public KnowledgeEntry ownedBy(String owner) {
        return new KnowledgeEntry(owner, key, category, content, tags, source, useCount, createdAt, updatedAt);
    }

    public boolean shared() {
        return owner.isEmpty();
    }

    /** How many of the keywords the key, content or tags contain, ignoring case. */
    public int relevance(List<String> keywords) {
        String text = (key + "\n" + content + "\n" + String.join("\n", tags)).toLowerCase(Locale.ROOT);
        return (int) keywords.stream().filter(text::contains).count();
    }

    static boolean knownCategory(String category) {
        return Set.copyOf(CATEGORIES).contains(category);
    }
}
