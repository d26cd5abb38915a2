package ai.lango.skills;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** list_skills: every skill, with what is wrong with a broken one. */
final class ListSkills extends SkillTool {

    private final SkillLibrary library;

    ListSkills(SkillLibrary library) {
        super("list_skills", Safety.SAFE, "List the skills (folders of instructions for particular tasks): name, description,"
                + " and for a broken one what is wrong with it.", ToolArgs.schema(new LinkedHashMap<>(), List.of()));
        this.library = library;
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) {
        List<Map<String, Object>> skills = library.all().stream().map(SkillToolset::summary).toList();
        return Map.of("skills", skills, "count", skills.size());
    }
}
