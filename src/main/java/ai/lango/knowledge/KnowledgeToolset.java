package ai.lango.knowledge;

import ai.lango.config.LangoSettings;
import ai.lango.security.Ownership;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * save_knowledge and search_knowledge, with the parameter names and result shapes of the system
 * Lango follows (result keys capitalised as it wrote them). The researcher's in multi-agent mode.
 * What a user's model saves is that user's (see {@link Ownership}); a search finds the user's own
 * and the shared entries, each marked as which.
 */
@ApplicationScoped
public class KnowledgeToolset implements Toolset {

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    KnowledgeStore store;

    @Inject
    Ownership ownership;

    @Override
    public String name() {
        return "knowledge";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 40;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new SaveKnowledge(settings, store, ownership), new SearchKnowledge(store));
    }
}
