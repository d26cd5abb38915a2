package ai.lango.knowledge;

import ai.lango.config.LangoSettings;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Hit;
import ai.lango.retrieval.Retrieval;
import ai.lango.security.Ownership;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ## User Knowledge}: the entries most relevant to the user's message (see {@link #relevant}),
 * of the user's own and the shared ones, at most 5, within the budget.
 */
@ApplicationScoped
public class UserKnowledgeContext implements ContextSource {

    static final String TITLE = "## User Knowledge";

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    KnowledgeStore store;

    @Inject
    Retrieval retrieval;

    @Override
    public String name() {
        return "user-knowledge";
    }

    @Override
    public int order() {
        return USER_KNOWLEDGE;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.enabled() || context.userMessage() == null) {
            return Optional.empty();
        }
        String section = KnowledgeSection.render(TITLE, relevant(context).stream().map(KnowledgeSection::fact)
                .toList(), settings.contextBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }

    /**
     * The entries retrieval relates to the message (by meaning or words), then, for entries saved a
     * moment ago and not embedded yet, those sharing a keyword with it.
     */
    List<KnowledgeEntry> relevant(PromptContext context) {
        String message = context.userMessage();
        String userId = context.userId();
        Map<String, KnowledgeEntry> found = new LinkedHashMap<>();
        for (Hit hit : retrieval.related(message, KnowledgeSection.MAX_ITEMS, List.of(Document.KNOWLEDGE), context.session())) {
            // A hit is shared or, being visible to this session, the user's own.
            store.get(hit.shared() || userId == null ? Ownership.SHARED : userId, hit.sourceId())
                    .ifPresent(e -> found.put(KnowledgeStore.document(e).key(), e));
        }
        for (KnowledgeEntry e : store.search(message, null, KnowledgeSection.MAX_ITEMS, Ownership.visibleTo(userId))) {
            if (found.size() < KnowledgeSection.MAX_ITEMS) {
                found.putIfAbsent(KnowledgeStore.document(e).key(), e);
            }
        }
        return List.copyOf(found.values());
    }
}
