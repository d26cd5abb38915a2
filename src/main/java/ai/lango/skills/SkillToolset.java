package ai.lango.skills;

import ai.lango.security.Ownership;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * list_skills, load_skill, load_skill_resource (safe: reading), create_skill (moderate) and
 * import_skill (dangerous: it brings instructions from elsewhere into every user's prompt). Skills
 * are every user's, so only those who may write what is shared (see {@link Ownership}) create or
 * import them. The executor's in multi-agent mode.
 */
@ApplicationScoped
public class SkillToolset implements Toolset {

    @Inject
    SkillLibrary library;

    @Inject
    SkillImports imports;

    @Inject
    Ownership ownership;

    @Override
    public String name() {
        return "skills";
    }

    @Override
    public boolean enabled() {
        return library.enabled();
    }

    @Override
    public int order() {
        return 62;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new ListSkills(library), new LoadSkill(library), new LoadSkillResource(library),
                new CreateSkill(library, ownership), new ImportSkill(imports, ownership));
    }

    /** A skill as list_skills and the admin API show it: name, description, usable, and what is wrong. */
    public static Map<String, Object> summary(Skill skill) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", skill.name());
        out.put("description", skill.description() == null ? "" : skill.description());
        out.put("usable", skill.usable());
        if (!skill.usable()) {
            out.put("problems", skill.problems());
        }
        return out;
    }
}
