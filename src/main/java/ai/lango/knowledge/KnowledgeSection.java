package ai.lango.knowledge;

import ai.lango.session.TokenEstimator;
import java.util.List;

/**
 * A prompt section of lines under a title, within a token budget: the lines are taken in the
 * order given (most relevant first) while they fit, the title paid with the first; nothing fits,
 * nothing is written.
 */
public final class KnowledgeSection {

    /** At most this many lines in a section. */
    public static final int MAX_ITEMS = 5;

    private KnowledgeSection() {
    }

    public static String render(String title, List<String> lines, int budget) {
        StringBuilder section = new StringBuilder(title).append('\n');
        int written = 0;
        for (String line : lines) {
            // The whole text is estimated, not each piece: rounding per piece would undercount.
            if (written == MAX_ITEMS || TokenEstimator.estimate(section + line + "\n") > budget) {
                break;
            }
            section.append(line).append('\n');
            written++;
        }
        return written == 0 ? "" : section.toString();
    }

    /** A knowledge line: {@code - [category] key: content}. */
    public static String line(KnowledgeEntry entry) {
        return "- [" + entry.category() + "] " + entry.key() + ": " + entry.content();
    }
}
