package ai.lango.prompt;

import ai.lango.session.TokenEstimator;
import java.util.List;

/**
 * A prompt section of lines under a title, within a token budget: the lines are taken in the
 * order given (most relevant first) while they fit and at most {@code maxLines} of them, the title
 * paid with the first; nothing fits, nothing is written.
 */
public final class BudgetedSection {

    private BudgetedSection() {
    }

    public static String render(String title, List<String> lines, int maxLines, int budget) {
        StringBuilder section = new StringBuilder(title).append('\n');
        int written = 0;
        for (String line : lines) {
            // The whole text is estimated, not each piece: rounding per piece would undercount.
            if (written == maxLines || TokenEstimator.estimate(section + line + "\n") > budget) {
                break;
            }
            section.append(line).append('\n');
            written++;
        }
        return written == 0 ? "" : section.toString();
    }
}
