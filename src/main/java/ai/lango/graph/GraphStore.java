package ai.lango.graph;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The triples, for every session and every server. Adding a triple that is there already changes
 * nothing (of two servers adding the same one at once, one insert stands); every read is capped.
 */
@ApplicationScoped
public class GraphStore {

    /** Triples one query or traversal returns at most. */
    public static final int MAX_RESULTS = 100;
    /** The deepest traversal. */
    public static final int MAX_DEPTH = 5;

    private static final Logger LOG = Logger.getLogger(GraphStore.class.getName());

    @Inject
    GraphRows rows;

    /** Adds the triples that are not there yet, each noting {@code source} (the row it came from), and says how many. */
    public int add(List<Triple> triples, String source) {
        int added = 0;
        for (Triple t : triples) {
            if (rows.exists(t)) {
                continue;
            }
            try {
                rows.insert(t, source);
                added++;
            } catch (RuntimeException raced) {
                if (!rows.exists(t)) {
                    throw raced;
                }
                LOG.fine(() -> "triple " + t + " was added by another writer first");
            }
        }
        return added;
    }

    /** Triples with these parts (null: any); subject or object should be given, or the first triples come back. */
    public List<Triple> query(String subject, String predicate, String object) {
        return rows.matching(subject, predicate, object, MAX_RESULTS);
    }

    /** The triples within {@code maxDepth} edges of the node, in both directions, along {@code predicates} (empty: all). */
    public Traversal.Result traverse(String start, int maxDepth, Collection<String> predicates, int maxNodes) {
        return Traversal.walk(start, Math.min(maxDepth, MAX_DEPTH), predicates, maxNodes, MAX_RESULTS,
                node -> rows.touching(node, MAX_RESULTS));
    }

    /** Deletes what came from this row, and every triple about it. */
    public int forget(String node) {
        return rows.deleteBySource(node) + rows.deleteTouching(node);
    }

    public int deleteBySource(String source) {
        return rows.deleteBySource(source);
    }

    public long count() {
        return rows.count();
    }

    public Map<String, Long> countByPredicate() {
        return rows.countByPredicate();
    }
}
