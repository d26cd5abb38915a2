package ai.lango.knowledge;

import ai.lango.config.LangoSettings;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** {@code ## User Knowledge}: the entries most relevant to the user's message, at most 5, within the budget. */
@ApplicationScoped
public class UserKnowledgeContext implements ContextSource {

    static final String TITLE = "## User Knowledge";

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    KnowledgeStore store;

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
        String section = KnowledgeSection.render(TITLE, store.search(context.userMessage(), null, KnowledgeSection.MAX_ITEMS)
                .stream().map(KnowledgeSection::line).toList(), settings.contextBudget());
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }
}
