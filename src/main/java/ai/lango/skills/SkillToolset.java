package ai.lango.skills;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
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
        return List.of(new ListSkills(), new LoadSkill(), new LoadResource(), new CreateSkill(), new ImportSkill());
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

    private void requireWriter(Caller caller) throws ToolException {
        if (caller != null && caller.userId() != null && !ownership.mayWriteShared(caller.userId())) {
            throw new ToolException("skills are every user's: only an administrator adds them");
        }
    }

    private abstract static class Base implements Tool {
        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            try {
                return run(args, caller);
            } catch (SkillException e) {
                throw new ToolException(e.getMessage());
            }
        }

        abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException;
    }

    private final class ListSkills extends Base {
        @Override
        public String name() {
            return "list_skills";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "List the skills (folders of instructions for particular tasks): name, description, and for a broken one"
                    + " what is wrong with it.";
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(new LinkedHashMap<>(), List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) {
            List<Map<String, Object>> skills = library.all().stream().map(SkillToolset::summary).toList();
            return Map.of("skills", skills, "count", skills.size());
        }
    }

    private final class LoadSkill extends Base {
        @Override
        public String name() {
            return "load_skill";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Load a skill's instructions (its SKILL.md body) and the names of its other files, when a task matches"
                    + " its description; then follow them.";
        }

        @Override
        public Map<String, Object> parameters() {
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

    private final class LoadResource extends Base {
        @Override
        public String name() {
            return "load_skill_resource";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Read one of a skill's other files (a reference, a template, a script's text), by its path inside the"
                    + " skill's folder, as load_skill listed it.";
        }

        @Override
        public Map<String, Object> parameters() {
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

    private final class CreateSkill extends Base {
        @Override
        public String name() {
            return "create_skill";
        }

        @Override
        public Safety safety() {
            return Safety.MODERATE;
        }

        @Override
        public String description() {
            return "Write a new skill in the Agent Skills format: a name (lowercase letters, digits and single hyphens), a"
                    + " description of what it does and when to use it, and the instructions in Markdown.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("name", ToolArgs.string("1-64 lowercase letters, digits and single hyphens, e.g. \"release-notes\"."));
            properties.put("description", ToolArgs.string("What the skill does and when to use it (at most 1024 characters)."));
            properties.put("body", ToolArgs.string("The instructions, in Markdown."));
            properties.put("overwrite", Map.of("type", "boolean", "description", "Replace an existing skill's SKILL.md."));
            return ToolArgs.schema(properties, List.of("name", "description", "body"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
            requireWriter(caller);
            Skill skill = library.create(ToolArgs.required(args, "name").strip(), ToolArgs.required(args, "description"),
                    ToolArgs.required(args, "body"), Boolean.TRUE.equals(args.get("overwrite")));
            return Map.of("status", "created", "skill", summary(skill));
        }
    }

    private final class ImportSkill extends Base {
        @Override
        public String name() {
            return "import_skill";
        }

        @Override
        public Safety safety() {
            return Safety.DANGEROUS;
        }

        @Override
        public String description() {
            return "Import a skill: a folder or file on the server, an https URL of a SKILL.md, .zip or .tar.gz, or a git URL.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("source", ToolArgs.string("Where the skill is: a path, an https URL or a git URL."));
            properties.put("overwrite", Map.of("type", "boolean", "description", "Replace an existing skill of that name."));
            return ToolArgs.schema(properties, List.of("source"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
            requireWriter(caller);
            Skill skill = imports.importSkill(ToolArgs.required(args, "source"), Boolean.TRUE.equals(args.get("overwrite")));
            return Map.of("status", "imported", "skill", summary(skill));
        }
    }
}
