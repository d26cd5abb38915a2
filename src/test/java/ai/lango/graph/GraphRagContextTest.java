package ai.lango.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.prompt.StoredText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphRagContextTest {

    @Test
    void linesNameEachNewNodeOnceWithHowItWasReached() {
        List<StoredText> lines = GraphRagContext.expand(List.of("knowledge:outage", "knowledge:certs"), hit -> switch (hit) {
            case "knowledge:outage" -> List.of(Triple.of("knowledge:outage", "caused_by", "expired certificate"),
                    Triple.of("renewal job", "resolved_by", "expired certificate"),
                    Triple.of("knowledge:outage", "related_to", "knowledge:certs"));
            default -> List.of(Triple.of("knowledge:certs", "related_to", "expired certificate"));
        });
        assertEquals(List.of(
                new StoredText("expired certificate", "knowledge graph node, reached via caused_by from knowledge:outage",
                        "expired certificate"),
                new StoredText("renewal job", "knowledge graph node, reached via resolved_by from expired certificate",
                        "renewal job")), lines);
    }

    @Test
    void atMostTenNodes() {
        List<Triple> star = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            star.add(Triple.of("knowledge:hub", "related_to", "n" + i));
        }
        assertEquals(GraphRagContext.MAX_NODES, GraphRagContext.expand(List.of("knowledge:hub"), hit -> star).size());
    }
}
