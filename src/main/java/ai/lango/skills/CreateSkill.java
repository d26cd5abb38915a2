package ai.lango.skills;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** create_skill: a new skill in the Agent Skills format, by someone who may write what is shared. */
final class CreateSkill extends SkillTool {

    private final SkillLibrary library;
    private final Ownership ownership;

    CreateSkill(SkillLibrary library, Ownership ownership) {
        super("create_skill", Safety.MODERATE, "Write a new skill in the Agent Skills format: a name (lowercase letters, digits"
                + " and single hyphens), a description of what it does and when to use it, and the instructions in Markdown.",
                schema());
        this.library = library;
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string("1-64 lowercase letters, digits and single hyphens, e.g. \"release-notes\"."));
        properties.put("description", ToolArgs.string("What the skill does and when to use it (at most 1024 characters)."));
        properties.put("body", ToolArgs.string("The instructions, in Markdown."));
        properties.put("overwrite", Map.of("type", "boolean", "description", "Replace an existing skill's SKILL.md."));
        return ToolArgs.schema(properties, List.of("name", "description", "body"));
    }

    /** What it writes is kept: a secret's reference stays as text. */
    @Override
    public boolean keepsText() {
        return true;
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
        requireWriter(ownership, caller);
        Skill skill = library.create(ToolArgs.required(args, "name").strip(), ToolArgs.required(args, "description"),
                ToolArgs.required(args, "body"), Boolean.TRUE.equals(args.get("overwrite")));
        return Map.of("status", "created", "skill", SkillToolset.summary(skill));
    }
}
