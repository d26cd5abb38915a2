package ai.lango.eval;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * ROUGE-1: the F-measure of the words two texts share. Words as the usual scorer makes them: lower case, runs of
 * a–z and 0–9 (anything else separates), words longer than three letters stemmed by Porter's stemmer
 * ({@link ai.lango.retrieval.Stems}).
 */
public final class Rouge {

    private Rouge() {
    }

    /** ROUGE-1 F-measure of {@code candidate} against {@code reference}, from 0 to 1 (0 when either has no word). */
    public static double rouge1(String reference, String candidate) {
        Map<String, Integer> expected = words(reference);
        Map<String, Integer> actual = words(candidate);
        int referenceCount = expected.values().stream().mapToInt(Integer::intValue).sum();
        int candidateCount = actual.values().stream().mapToInt(Integer::intValue).sum();
        if (referenceCount == 0 || candidateCount == 0) {
            return 0;
        }
        int overlap = 0;
        for (Map.Entry<String, Integer> word : expected.entrySet()) {
            overlap += Math.min(word.getValue(), actual.getOrDefault(word.getKey(), 0));
        }
        double precision = (double) overlap / candidateCount;
        double recall = (double) overlap / referenceCount;
        return precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
    }

    static Map<String, Integer> words(String text) {
        Map<String, Integer> counts = new HashMap<>();
        if (text == null) {
            return counts;
        }
        for (String word : text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", " ").trim().split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            String stemmed = word.length() > 3 ? ai.lango.retrieval.Stems.of(word) : word;
            counts.merge(stemmed, 1, Integer::sum);
        }
        return counts;
    }
}
