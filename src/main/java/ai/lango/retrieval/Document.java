package ai.lango.retrieval;

import java.util.Objects;
import java.util.Set;

/**
 * A piece of text that can be retrieved: a row of one of the {@link #COLLECTIONS}, named by its
 * id there. Observations and reflections belong to a session (named by its
 * {@link ai.lango.turn.SessionRef#scope}) and are searched within it; knowledge and learnings belong
 * to everyone ({@code sessionScope} null).
 */
public record Document(String collection, String sourceId, String sessionScope, String content) {

    public static final String KNOWLEDGE = "knowledge";
    public static final String LEARNING = "learning";
    public static final String OBSERVATION = "observation";
    public static final String REFLECTION = "reflection";

    /** Every collection, in the order a listing shows them. */
    public static final java.util.List<String> COLLECTIONS = java.util.List.of(KNOWLEDGE, LEARNING, OBSERVATION, REFLECTION);
    /** The collections searched only within the current session. */
    public static final Set<String> SESSION_SCOPED = Set.of(OBSERVATION, REFLECTION);

    public Document {
        Objects.requireNonNull(collection, "collection");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(content, "content");
        if (!COLLECTIONS.contains(collection)) {
            throw new IllegalArgumentException("unknown collection " + collection);
        }
        if (SESSION_SCOPED.contains(collection) != (sessionScope != null)) {
            throw new IllegalArgumentException(collection + (sessionScope == null ? " needs" : " has no") + " a session");
        }
    }

    /** How the index and the graph name this row: "knowledge:deploy-branch". */
    public String node() {
        return collection + ":" + sourceId;
    }
}
