package ai.lango.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the extraction model's answer: one {@code SUBJECT|PREDICATE|OBJECT} per line, predicates
 * from {@link Predicates#EXTRACTED} only, at most {@link #MAX_TRIPLES}; {@code NONE} means none.
 * Whatever else the model wrote (prose, bullets, other predicates, empty or over-long parts) is
 * skipped, so a chatty answer still yields its good lines.
 */
public final class TripleParser {

    public static final int MAX_TRIPLES = 10;

    private TripleParser() {
    }

    /** The distinct triples of the answer, in order, each with the given metadata. */
    public static List<Triple> parse(String answer, Map<String, String> metadata) {
        Map<String, Triple> triples = new LinkedHashMap<>();
        if (answer == null) {
            return List.of();
        }
        for (String raw : answer.split("\\R")) {
            String line = raw.strip();
            // Models like list markers and code fences around the lines asked for.
            line = line.replaceFirst("^(?:[-*•]\\s+|\\d+[.)]\\s+)", "").replace("`", "").strip();
            String[] parts = line.split("\\|", -1);
            if (parts.length != 3) {
                continue;
            }
            String subject = parts[0].strip();
            String predicate = parts[1].strip().toLowerCase(Locale.ROOT);
            String object = parts[2].strip();
            if (subject.isEmpty() || object.isEmpty() || subject.length() > Triple.MAX_PART || object.length() > Triple.MAX_PART
                    || !Predicates.EXTRACTED.contains(predicate)) {
                continue;
            }
            Triple t = new Triple(subject, predicate, object, metadata);
            triples.putIfAbsent(t.spo(), t);
            if (triples.size() == MAX_TRIPLES) {
                break;
            }
        }
        return new ArrayList<>(triples.values());
    }
}
