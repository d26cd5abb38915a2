package ai.lango.retrieval;

import ai.lango.config.LangoSettings;
import ai.lango.prompt.BudgetedSection;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * {@code ## Semantic Context (RAG)}: what retrieval finds for the user's message (every collection,
 * this session's memory), within the section budget; only with lango.embedding.rag.enabled.
 */
@ApplicationScoped
public class RagContext implements ContextSource {

    static final String TITLE = "## Semantic Context (RAG)";
    static final int MAX_HITS = 5;

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    LangoSettings.Knowledge knowledge;

    @Inject
    Retrieval retrieval;

    @Override
    public String name() {
        return "rag";
    }

    @Override
    public int order() {
        return RETRIEVED;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.ragEnabled() || context.userMessage() == null || context.userMessage().isBlank()) {
            return Optional.empty();
        }
        List<StoredText> facts = retrieval.related(context.userMessage(), MAX_HITS, List.of(), context.session()).stream()
                .map(RagContext::fact).toList();
        String section = BudgetedSection.render(TITLE, facts, MAX_HITS, knowledge.contextBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }

    /** One hit as stored text: whose it is (shared, or this user's or session's), its collection and id, then its text. */
    static StoredText fact(Hit hit) {
        String whose = hit.shared() ? "shared " : Document.SESSION_SCOPED.contains(hit.collection()) ? "this session's " : "this user's ";
        return new StoredText(hit.key(), whose + hit.collection() + " " + hit.sourceId() + ", retrieved by meaning and keywords",
                hit.content());
    }
}
