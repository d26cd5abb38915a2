package ai.lango.knowledge;

import ai.lango.prompt.BudgetedSection;
import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
import java.util.List;

/** The knowledge and learning sections: at most {@link #MAX_ITEMS} lines within the budget (see {@link BudgetedSection}). */
public final class KnowledgeSection {

    /** At most this many lines in a section. */
    public static final int MAX_ITEMS = 5;

    private KnowledgeSection() {
    }

    public static String render(String title, List<StoredText> facts, int budget, PromptContext context) {
        return BudgetedSection.render(title, facts, MAX_ITEMS, budget, context);
    }

    /**
     * A knowledge entry as stored text: whose it is (shared, or this user's), its key, category,
     * where it came from and when, then its content.
     */
    public static StoredText fact(KnowledgeEntry entry) {
        return new StoredText(KnowledgeStore.document(entry).key(), (entry.shared() ? "shared knowledge" : "this user's knowledge")
                + " \"" + entry.key() + "\" (" + entry.category() + "), saved with save_knowledge" + (entry.source() == null || entry.source().isBlank() ? "" : " from " + entry.source())
                + StoredText.on(entry.updatedAt()), entry.content());
    }
}
