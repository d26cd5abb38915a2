package ai.lango.graph;

import java.util.Map;

/** A fact: subject, predicate, object, and what else is known of it (where it came from). */
public record Triple(String subject, String predicate, String object, Map<String, String> metadata) {

    /** The longest subject or object stored. */
    public static final int MAX_PART = 255;

    public Triple {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    public static Triple of(String subject, String predicate, String object) {
        return new Triple(subject, predicate, object, Map.of());
    }

    /** Identity without the metadata: two triples with the same parts are the same fact. */
    public String spo() {
        return subject + "\u0000" + predicate + "\u0000" + object;
    }
}
