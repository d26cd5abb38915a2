package ai.lango.skills;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** load_skill: a usable skill's instructions and the names of its other files. */
final class LoadSkill extends SkillTool {

    private final SkillLibrary library;

    LoadSkill(SkillLibrary library) {
        super("load_skill", Safety.SAFE, "Load a skill's instructions (its SKILL.md body) and the names of its other files,"
                + " when a task matches its description; then follow them.", schema());
        this.library = library;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string("The skill's name, as list_skills shows it."));
        return ToolArgs.schema(properties, List.of("name"));
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
        String name = ToolArgs.required(args, "name").strip();
        Skill skill = library.find(name).orElseThrow(() -> new SkillException("there is no skill \"" + name
                + "\"; list_skills shows the skills there are"));
        if (!skill.usable()) {
            throw new SkillException("the skill \"" + name + "\" cannot be used: " + String.join("; ", skill.problems()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", skill.name());
        out.put("instructions", skill.body());
        out.put("resources", library.resources(skill));
        if (!skill.allowedTools().isEmpty()) {
            out.put("allowedTools", skill.allowedTools());
        }
        return out;
    }
}
