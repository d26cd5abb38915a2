package ai.lango.retrieval;

import java.util.Objects;
import java.util.Set;

/**
 * A piece of text that can be retrieved: a row of one of the {@link #COLLECTIONS}, named by its
 * id there, and whose it is ({@code scope}). Observations and reflections belong to a session (its
 * {@link ai.lango.turn.SessionRef#scope}) and are searched within it; knowledge and learnings belong
 * to their owner ({@link ai.lango.turn.SessionRef#ownerScope}) or, with {@code scope} null, are
 * shared by every user.
 */
public record Document(String collection, String sourceId, String scope, String content) {

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
        if (SESSION_SCOPED.contains(collection) && scope == null) {
            throw new IllegalArgumentException(collection + " needs a session");
        }
    }

    /** The scope of a knowledge entry's or learning's owner: null when shared (an owner of ""). */
    public static String ownerScope(String owner) {
        return owner == null || owner.isEmpty() ? null : ai.lango.turn.SessionRef.ownerScope(owner);
    }

    /** Whether every user may find it. */
    public boolean shared() {
        return scope == null;
    }

    /** How the graph and prompts name this row: "knowledge:deploy-branch" (two users' entries may share it). */
    public String node() {
        return collection + ":" + sourceId;
    }

    /** What tells this row from every other, also from another owner's of the same name: the index's key. */
    public String key() {
        return key(collection, sourceId, scope);
    }

    static String key(String collection, String sourceId, String scope) {
        // Observations and reflections have ids unique across sessions; a knowledge key is unique per owner only.
        return scope == null || SESSION_SCOPED.contains(collection) ? collection + ":" + sourceId
                : collection + ":" + sourceId + "@" + scope;
    }
}
