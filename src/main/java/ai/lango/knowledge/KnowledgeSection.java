package ai.lango.knowledge;

import ai.lango.prompt.BudgetedSection;
import java.util.List;

/** The knowledge and learning sections: at most {@link #MAX_ITEMS} lines within the budget (see {@link BudgetedSection}). */
public final class KnowledgeSection {

    /** At most this many lines in a section. */
    public static final int MAX_ITEMS = 5;

    private KnowledgeSection() {
    }

    public static String render(String title, List<String> lines, int budget) {
        return BudgetedSection.render(title, lines, MAX_ITEMS, budget);
    }

    /** A knowledge line: {@code - [category] key: content}. */
    public static String line(KnowledgeEntry entry) {
        return "- [" + entry.category() + "] " + entry.key() + ": " + entry.content();
    }
}
