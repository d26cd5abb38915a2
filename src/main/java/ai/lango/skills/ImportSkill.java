package ai.lango.skills;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** import_skill: a skill brought from a path, an https URL or a git URL (dangerous: its instructions reach every user's prompt). */
final class ImportSkill extends SkillTool {

    private final SkillImports imports;
    private final Ownership ownership;

    ImportSkill(SkillImports imports, Ownership ownership) {
        super("import_skill", Safety.DANGEROUS, "Import a skill: a folder or file on the server, an https URL of a SKILL.md, .zip"
                + " or .tar.gz, or a git URL.", schema());
        this.imports = imports;
        this.ownership = ownership;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("source", ToolArgs.string("Where the skill is: a path, an https URL or a git URL."));
        properties.put("overwrite", Map.of("type", "boolean", "description", "Replace an existing skill of that name."));
        return ToolArgs.schema(properties, List.of("source"));
    }

    /** An https or git source is fetched from its host; a path on the server is read here. */
    @Override
    public java.util.Optional<String> destination(Map<String, Object> args, Caller caller) {
        return args.get("source") instanceof String source && source.contains("://")
                ? java.util.Optional.of(ai.lango.net.egress.HostPolicy.destination(source).orElse("*")) : java.util.Optional.empty();
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException {
        requireWriter(ownership, caller);
        Skill skill = imports.importSkill(ToolArgs.required(args, "source"), Boolean.TRUE.equals(args.get("overwrite")));
        return Map.of("status", "imported", "skill", SkillToolset.summary(skill));
    }
}
