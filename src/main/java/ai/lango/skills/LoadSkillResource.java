package ai.lango.skills;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** load_skill_resource: one of a skill's other files, by its path inside the skill's folder. */
final class LoadSkillResource extends SkillTool {

    private final SkillLibrary library;

    LoadSkillResource(SkillLibrary library) {
        super("load_skill_resource", Safety.SAFE, "Read one of a skill's other files (a reference, a template, a script's text),"
                + " by its path inside the skill's folder, as load_skill listed it.", schema());
        this.library = library;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string("The skill's name."));
        properties.put("path", ToolArgs.string("The file's path inside the skill's folder, e.g. \"references/forms.md\"."));
        return ToolArgs.schema(properties, List.of("name", "path"));
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
        String name = ToolArgs.required(args, "name").strip();
        String path = ToolArgs.required(args, "path").strip();
        return Map.of("name", name, "path", path, "content", library.resource(name, path));
    }
}
