package ai.lango.graph;

import ai.lango.masking.MaskedLogs;
import ai.lango.retrieval.Document;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The triples, on every server. Each belongs to a scope — a session's (its memory), an owner's
 * (their knowledge) or {@link #SHARED} — and a caller reads the shared ones and those of its
 * session and user ({@link #visibleTo}); operators read every scope. Adding a triple that is there
 * already changes nothing (of two servers adding the same one at once, one insert stands); every
 * read is capped.
 */
@ApplicationScoped
public class GraphStore {

    /** Triples one query or traversal returns at most. */
    public static final int MAX_RESULTS = 100;
    /** The deepest traversal. */
    public static final int MAX_DEPTH = 5;
    /** The scope of what every user shares. */
    public static final String SHARED = "";

    private static final Logger LOG = MaskedLogs.of(GraphStore.class);

    @Inject
    GraphRows rows;

    /** The scopes a turn of the session reads: what is shared, the session's and its user's own (only what is shared without a session). */
    public static Set<String> visibleTo(SessionRef session) {
        return session == null ? Set.of(SHARED) : Set.of(SHARED, session.scope(), SessionRef.ownerScope(session.userId()));
    }

    /** The scope of the triples from an owner's rows ({@link ai.lango.security.Ownership#SHARED} for shared ones). */
    static String ownerScope(String owner) {
        String scope = Document.ownerScope(owner);
        return scope == null ? SHARED : scope;
    }

    /**
     * Adds the triples that are not in {@code scope} yet, each noting {@code source} (the row it
     * came from), and says how many.
     */
    public int add(List<Triple> triples, String source, String scope) {
        int added = 0;
        for (Triple t : triples) {
            if (rows.exists(t, scope)) {
                continue;
            }
            try {
                rows.insert(t, source, scope);
                added++;
            } catch (RuntimeException raced) {
                if (!rows.exists(t, scope)) {
                    throw raced;
                }
                LOG.fine(() -> "triple " + t + " was added by another writer first");
            }
        }
        return added;
    }

    /** Triples of every scope with these parts (null: any), for operators; subject or object should be given, or the first triples come back. */
    public List<Triple> query(String subject, String predicate, String object) {
        return rows.matching(subject, predicate, object, null, MAX_RESULTS);
    }

    /** As {@link #query(String, String, String)}, of these scopes only. */
    public List<Triple> query(String subject, String predicate, String object, Collection<String> scopes) {
        return rows.matching(subject, predicate, object, scopes, MAX_RESULTS);
    }

    /**
     * The triples of the scopes within {@code maxDepth} edges of the node, in both directions, along
     * {@code predicates} (empty: all).
     */
    public Traversal.Result traverse(String start, int maxDepth, Collection<String> predicates, int maxNodes,
                                     Collection<String> scopes) {
        return Traversal.walk(start, Math.min(maxDepth, MAX_DEPTH), predicates, maxNodes, MAX_RESULTS,
                node -> rows.touching(node, scopes, MAX_RESULTS));
    }

    /** Deletes what came from this row of this scope, and every triple of the scope about it. */
    public int forget(String node, String scope) {
        return rows.deleteBySource(node, scope) + rows.deleteTouching(node, scope);
    }

    public int deleteBySource(String source, String scope) {
        return rows.deleteBySource(source, scope);
    }

    public long count() {
        return rows.count();
    }

    public Map<String, Long> countByPredicate() {
        return rows.countByPredicate();
    }
}
