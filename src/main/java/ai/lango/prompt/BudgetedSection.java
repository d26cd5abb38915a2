package ai.lango.prompt;

import ai.lango.session.TokenEstimator;
import java.util.List;

/**
 * A prompt section of stored facts under a title, within a token budget: the facts are taken in the
 * order given (most relevant first), at most {@code maxItems}, each unless an earlier section of the
 * same prompt already shows it; the first that does not fit whole is cut to what is left (when
 * enough is left to be worth it) and ends the section. Nothing shown, nothing written.
 */
public final class BudgetedSection {

    /** A fact is cut to fit only if this many tokens or more are left for it. */
    static final int MIN_CUT_TOKENS = 40;

    private BudgetedSection() {
    }

    public static String render(String title, List<StoredText> facts, int maxItems, int budget, PromptContext context) {
        StringBuilder section = new StringBuilder(title).append('\n');
        int written = 0;
        for (StoredText fact : facts) {
            if (written == maxItems) {
                break;
            }
            if (context.alreadyShown(fact.id())) {
                continue;
            }
            String block = "\n" + fact.render();
            // The whole text is estimated, not each piece: rounding per piece would undercount.
            int left = budget - TokenEstimator.estimate(section.toString());
            if (TokenEstimator.estimate(section + block) > budget) {
                if (left >= MIN_CUT_TOKENS) {
                    section.append('\n').append(fitted(fact, left));
                    context.showing(fact.id());
                    written++;
                }
                break;
            }
            section.append(block);
            context.showing(fact.id());
            written++;
        }
        return written == 0 ? "" : section.toString();
    }

    /** The fact cut so that its block takes at most {@code tokens}. */
    private static String fitted(StoredText fact, int tokens) {
        int chars = 4 * tokens; // about four characters a token (TokenEstimator)
        String block = fact.render(chars);
        while (TokenEstimator.estimate(block) > tokens && chars > 0) {
            chars -= Math.max(1, chars / 10);
            block = fact.render(chars);
        }
        return block;
    }
}
