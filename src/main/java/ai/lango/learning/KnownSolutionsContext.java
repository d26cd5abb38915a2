package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.knowledge.KnowledgeSection;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
import ai.lango.security.Ownership;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * {@code ## Known Solutions}: fixes confident enough to apply (over 0.7) among the learnings the
 * user's message touches (the user's own and the shared ones), at most 5, most confident first,
 * within the budget.
 */
@ApplicationScoped
public class KnownSolutionsContext implements ContextSource {

    static final String TITLE = "## Known Solutions";

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    LearningStore store;

    @Override
    public String name() {
        return "known-solutions";
    }

    @Override
    public int order() {
        return KNOWN_SOLUTIONS;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.enabled() || context.userMessage() == null) {
            return Optional.empty();
        }
        List<StoredText> facts = store.search(context.userMessage(), null, LearningStore.SEARCH_LIMIT, Ownership.visibleTo(context.userId())).stream()
                .filter(l -> Confidence.applies(l.confidence(), l.fix()))
                .map(KnownSolutionsContext::fact).toList();
        String section = KnowledgeSection.render(TITLE, facts, settings.contextBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }

    /** {@code When '<trigger>' occurs: <fix>}. */
    static String line(Learning learning) {
        return "When '" + learning.trigger() + "' occurs: " + learning.fix();
    }

    /** A learning as stored text: whose it is, its number, confidence and date, then the line. */
    static StoredText fact(Learning learning) {
        return new StoredText(LearningStore.document(learning).key(), (learning.shared() ? "shared learning " : "this user's learning ")
                + learning.id() + ", a fix saved with save_learning"
                + String.format(java.util.Locale.ROOT, ", confidence %.2f", learning.confidence())
                + StoredText.on(learning.updatedAt()), line(learning));
    }
}
