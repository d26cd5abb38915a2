package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FusionTest {

    private static List<String> ids(List<Fusion.Scored> fused) {
        return fused.stream().map(Fusion.Scored::id).toList();
    }

    @Test
    void anItemHighInBothRankingsComesFirst() {
        assertEquals(List.of("b", "a", "c"), ids(Fusion.reciprocalRank(List.of(List.of("a", "b"), List.of("c", "b")), 30)));
    }

    @Test
    void eachRankingGivesOneOverKPlusRank() {
        List<Fusion.Scored> fused = Fusion.reciprocalRank(List.of(List.of("a", "b"), List.of("b")), 10);
        assertEquals(1.0 / 12 + 1.0 / 11, fused.get(0).score(), 1e-12);
        assertEquals(1.0 / 11, fused.get(1).score(), 1e-12);
    }

    @Test
    void tiesKeepTheOrderOfFirstAppearance() {
        assertEquals(List.of("x", "y"), ids(Fusion.reciprocalRank(List.of(List.of("x"), List.of("y")), 30)));
        assertEquals(List.of("y", "x"), ids(Fusion.reciprocalRank(List.of(List.of("y"), List.of("x")), 30)));
    }

    @Test
    void nothingFusesToNothing() {
        assertEquals(List.of(), Fusion.reciprocalRank(List.of(List.of(), List.of()), 30));
    }
}
