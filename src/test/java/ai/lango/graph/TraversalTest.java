package ai.lango.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class TraversalTest {

    /** The triples touching a node, as the store answers (a triple may come back from both of its ends). */
    private static Function<String, List<Triple>> graph(Triple... triples) {
        return node -> {
            List<Triple> touching = new ArrayList<>();
            for (Triple t : triples) {
                if (t.subject().equals(node) || t.object().equals(node)) {
                    touching.add(t);
                }
            }
            return touching;
        };
    }

    private static List<String> spo(Traversal.Result result) {
        return result.triples().stream().map(t -> t.subject() + " " + t.predicate() + " " + t.object()).toList();
    }

    @Test
    void walksBothDirectionsToTheDepthAndNoFurther() {
        var edges = graph(Triple.of("a", "related_to", "b"), Triple.of("c", "caused_by", "b"), Triple.of("c", "related_to", "d"));
        assertEquals(List.of("a related_to b"), spo(Traversal.walk("a", 1, List.of(), 100, 100, edges)));
        assertEquals(List.of("a related_to b", "c caused_by b"), spo(Traversal.walk("a", 2, List.of(), 100, 100, edges)));
        assertEquals(List.of("a", "b", "c", "d"), Traversal.walk("a", 3, List.of(), 100, 100, edges).nodes());
    }

    @Test
    void everyTripleOnceHoweverManyPathsReachIt() {
        var edges = graph(Triple.of("a", "related_to", "b"), Triple.of("a", "related_to", "c"), Triple.of("b", "similar_to", "c"));
        assertEquals(3, Traversal.walk("a", 5, List.of(), 100, 100, edges).triples().size());
    }

    @Test
    void followsOnlyTheGivenPredicates() {
        var edges = graph(Triple.of("a", "related_to", "b"), Triple.of("a", "in_session", "session:s"));
        assertEquals(List.of("a related_to b"), spo(Traversal.walk("a", 2, List.of("related_to"), 100, 100, edges)));
    }

    @Test
    void stopsAtTheTripleAndNodeCaps() {
        List<Triple> star = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            star.add(Triple.of("hub", "related_to", "n" + i));
        }
        var edges = graph(star.toArray(Triple[]::new));
        assertEquals(10, Traversal.walk("hub", 2, List.of(), 100, 10, edges).triples().size());
        assertEquals(5, Traversal.walk("hub", 2, List.of(), 5, 100, edges).nodes().size());
    }

    @Test
    void aCycleEnds() {
        var edges = graph(Triple.of("a", "follows", "b"), Triple.of("b", "follows", "a"));
        assertEquals(2, Traversal.walk("a", 5, List.of(), 100, 100, edges).triples().size());
    }
}
