package ai.lango.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The words of a user's message that are worth searching stored knowledge for: lower-cased,
 * stripped of everything but letters, digits, '-' and '_', without stop words and one-letter
 * words, at most five, each at most fifty characters, in the order they appear.
 */
public final class Keywords {

    public static final int MAX_KEYWORDS = 5;
    public static final int MAX_LENGTH = 50;

    private static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does", "for",
            "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its",
            "me", "my", "no", "not", "of", "on", "or", "our", "please", "she", "should", "so", "than", "that",
            "the", "their", "them", "then", "there", "these", "they", "this", "to", "up", "us", "was", "we",
            "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your");

    private Keywords() {
    }

    public static List<String> of(String text) {
        Set<String> words = new LinkedHashSet<>();
        if (text != null) {
            for (String raw : text.toLowerCase(Locale.ROOT).split("\\s+")) {
                String word = raw.replaceAll("[^a-z0-9_-]", "");
                if (word.length() < 2 || STOP_WORDS.contains(word)) {
                    continue;
                }
                words.add(word.length() > MAX_LENGTH ? word.substring(0, MAX_LENGTH) : word);
                if (words.size() == MAX_KEYWORDS) {
                    break;
                }
            }
        }
        return new ArrayList<>(words);
    }
}
