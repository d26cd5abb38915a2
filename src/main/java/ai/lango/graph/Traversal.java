package ai.lango.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Breadth-first search from a node over edges in both directions (a node's triples as subject and
 * as object), to a depth, along some predicates or all. Every triple is returned once, however
 * many paths reach it, and the walk stops at {@code maxTriples} triples or {@code maxNodes} nodes.
 */
public final class Traversal {

    /** What the walk found: the triples, in the order met, and the nodes reached (the start first). */
    public record Result(List<Triple> triples, List<String> nodes) {
    }

    private Traversal() {
    }

    /**
     * @param edges the triples touching a node (subject or object)
     */
    public static Result walk(String start, int maxDepth, Collection<String> predicates, int maxNodes, int maxTriples,
                              Function<String, List<Triple>> edges) {
        Map<String, Triple> triples = new LinkedHashMap<>();
        List<String> nodes = new ArrayList<>(List.of(start));
        Set<String> seen = new HashSet<>(nodes);
        Deque<String> frontier = new ArrayDeque<>(nodes);
        for (int depth = 0; depth < maxDepth && !frontier.isEmpty(); depth++) {
            Deque<String> next = new ArrayDeque<>();
            while (!frontier.isEmpty()) {
                String node = frontier.poll();
                for (Triple t : edges.apply(node)) {
                    if (!predicates.isEmpty() && !predicates.contains(t.predicate())) {
                        continue;
                    }
                    if (!triples.containsKey(t.spo())) {
                        if (triples.size() == maxTriples) {
                            return new Result(List.copyOf(triples.values()), List.copyOf(nodes));
                        }
                        triples.put(t.spo(), t);
                    }
                    String other = t.subject().equals(node) ? t.object() : t.subject();
                    if (nodes.size() < maxNodes && seen.add(other)) {
                        nodes.add(other);
                        next.add(other);
                    }
                }
            }
            frontier = next;
        }
        return new Result(List.copyOf(triples.values()), List.copyOf(nodes));
    }
}
