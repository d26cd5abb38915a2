package ai.lango.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TripleParserTest {

    private static final Map<String, String> SOURCE = Map.of("source", "knowledge:k");

    @Test
    void readsOneTriplePerLineWithTheGivenMetadata() {
        List<Triple> triples = TripleParser.parse("Lango|related_to|Open Liberty\nOutage|caused_by|expired certificate", SOURCE);
        assertEquals(List.of(new Triple("Lango", "related_to", "Open Liberty", SOURCE),
                new Triple("Outage", "caused_by", "expired certificate", SOURCE)), triples);
    }

    @Test
    void badLinesAreIgnoredAndTheGoodOnesKept() {
        String answer = """
                Here are the triples:
                Lango|related_to|Open Liberty
                only|two
                a|b|c|d
                |related_to|empty subject
                Lango|loves|Java
                Lango|in_session|session:x
                - Flyway|contains|migrations
                `Crash|resolved_by|restart`
                """;
        assertEquals(List.of("Lango related_to Open Liberty", "Flyway contains migrations", "Crash resolved_by restart"),
                TripleParser.parse(answer, SOURCE).stream().map(t -> t.subject() + " " + t.predicate() + " " + t.object()).toList());
    }

    @Test
    void noneMeansNoTriples() {
        assertTrue(TripleParser.parse("NONE", SOURCE).isEmpty());
        assertTrue(TripleParser.parse("", SOURCE).isEmpty());
        assertTrue(TripleParser.parse(null, SOURCE).isEmpty());
    }

    @Test
    void atMostTenDistinctTriples() {
        String answer = IntStream.range(0, 15).mapToObj(i -> "a" + i + "|related_to|b").collect(Collectors.joining("\n"));
        assertEquals(10, TripleParser.parse(answer, SOURCE).size());
        assertEquals(1, TripleParser.parse("a|related_to|b\na|related_to|b\nA | RELATED_TO | b", SOURCE).stream()
                .filter(t -> t.subject().equals("a")).count());
    }

    @Test
    void overLongPartsAreSkipped() {
        assertTrue(TripleParser.parse("x".repeat(Triple.MAX_PART + 1) + "|related_to|b", SOURCE).isEmpty());
    }
}
