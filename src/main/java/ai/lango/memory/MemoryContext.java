package ai.lango.memory;

import ai.lango.config.LangoSettings;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** The memory section of the system prompt, for the turn's session, within lango.memory.token-budget. */
@ApplicationScoped
public class MemoryContext implements ContextSource {

    @Inject
    LangoSettings.Memory settings;

    @Inject
    MemoryStore store;

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public int order() {
        return MEMORY;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.enabled() || context.session() == null) {
            return Optional.empty();
        }
        MemoryStore.Contents active = store.active(context.session());
        String section = MemorySection.render(active.reflections().stream().map(MemorySection::fact).toList(),
                active.observations().stream().map(MemorySection::fact).toList(), settings.tokenBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }
}
