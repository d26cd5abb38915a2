package ai.lango.skills;

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
 * {@code ## Skills}: the usable skills' names and descriptions, read from the folder at every model
 * call, within lango.skills.prompt-budget; the instructions load only when the model asks
 * (load_skill). A description is shown as quoted data, like every stored text.
 */
@ApplicationScoped
public class SkillsContext implements ContextSource {

    static final String TITLE = "## Skills\nFolders of instructions for particular tasks. When a task matches a skill's"
            + " description, call load_skill with its name and follow what it says.";
    static final int MAX_SKILLS = 100;

    @Inject
    SkillLibrary library;

    @Inject
    LangoSettings.Skills settings;

    @Override
    public String name() {
        return "skills";
    }

    @Override
    public int order() {
        return SKILLS;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.enabled()) {
            return Optional.empty();
        }
        List<StoredText> skills = library.usable().stream()
                .map(s -> new StoredText("skill:" + s.name(), "skill " + s.name(), s.description())).toList();
        String section = BudgetedSection.render(TITLE, skills, MAX_SKILLS, settings.promptBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }
}
