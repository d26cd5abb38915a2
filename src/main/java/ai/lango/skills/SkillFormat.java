package ai.lango.skills;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * SKILL.md as the Agent Skills specification defines it: YAML front matter between {@code ---}
 * lines, then the instructions. {@link #read} checks the specification's rules and says which field
 * breaks which; it reads what strict YAML refuses but people write (an unquoted colon in a
 * description), and ignores fields it does not know. {@link #write} writes what any Agent Skills
 * reader accepts.
 */
public final class SkillFormat {

    public static final String FILE = "SKILL.md";
    /** 1–64 lowercase letters and digits in groups joined by single hyphens. */
    static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    static final int MAX_NAME = 64;
    static final int MAX_DESCRIPTION = 1024;
    static final int MAX_COMPATIBILITY = 500;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));
    private static final Pattern TOP_LEVEL = Pattern.compile("([A-Za-z][A-Za-z0-9_-]*):(?:\\s(.*))?");

    private SkillFormat() {
    }

    /** What is wrong with {@code name} as a skill's name, or null. */
    public static String nameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "name: required";
        }
        if (name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            return "name: must be 1 to " + MAX_NAME + " lowercase letters, digits and single hyphens, not starting or"
                    + " ending with one (\"" + shorten(name) + "\")";
        }
        return null;
    }

    /** What is wrong with {@code description}, or null. */
    static String descriptionProblem(String description) {
        if (description == null || description.isBlank()) {
            return "description: required (what the skill does and when to use it)";
        }
        if (description.length() > MAX_DESCRIPTION) {
            return "description: at most " + MAX_DESCRIPTION + " characters (it has " + description.length() + ")";
        }
        return null;
    }

    /** The skill in {@code folder} whose SKILL.md says {@code text}: its fields and its problems. */
    public static Skill read(Path folder, String text) {
        String folderName = folder.getFileName().toString();
        List<String> problems = new ArrayList<>();
        String normalized = text.replace("\r\n", "\n");
        if (normalized.startsWith("\uFEFF")) {
            normalized = normalized.substring(1);
        }
        if (!normalized.startsWith("---\n")) {
            problems.add("front matter: SKILL.md must start with a line \"---\", the YAML front matter, and another \"---\"");
            return new Skill(folderName, null, null, null, Map.of(), List.of(), normalized, folder, problems);
        }
        int end = normalized.indexOf("\n---", 3);
        if (end < 0) {
            problems.add("front matter: no closing \"---\" line");
            return new Skill(folderName, null, null, null, Map.of(), List.of(), "", folder, problems);
        }
        String yaml = normalized.substring(4, end + 1);
        int bodyStart = normalized.indexOf('\n', end + 1);
        String body = bodyStart < 0 ? "" : normalized.substring(bodyStart + 1).strip();
        Map<String, Object> fields = fields(yaml, problems);

        String name = text(fields, "name", problems);
        String nameProblem = nameProblem(name);
        if (nameProblem != null) {
            problems.add(nameProblem);
        } else if (!name.equals(folderName)) {
            problems.add("name: must equal the folder's name (\"" + shorten(name) + "\" is in the folder \"" + shorten(folderName) + "\")");
        }
        String description = text(fields, "description", problems);
        String descriptionProblem = descriptionProblem(description);
        if (descriptionProblem != null) {
            problems.add(descriptionProblem);
        }
        String compatibility = text(fields, "compatibility", problems);
        if (compatibility != null && (compatibility.isEmpty() || compatibility.length() > MAX_COMPATIBILITY)) {
            problems.add("compatibility: 1 to " + MAX_COMPATIBILITY + " characters when given (it has " + compatibility.length() + ")");
        }
        String license = text(fields, "license", problems);
        Map<String, String> metadata = new LinkedHashMap<>();
        Object rawMetadata = fields.get("metadata");
        if (rawMetadata instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (v instanceof Map<?, ?> || v instanceof Collection<?>) {
                    problems.add("metadata: values are text (\"" + shorten(String.valueOf(k)) + "\" is not)");
                } else {
                    metadata.put(String.valueOf(k), v == null ? "" : String.valueOf(v));
                }
            });
        } else if (rawMetadata != null) {
            problems.add("metadata: a map of names to text");
        }
        List<String> allowedTools = new ArrayList<>();
        Object rawTools = fields.get("allowed-tools");
        if (rawTools instanceof String tools) {
            allowedTools.addAll(List.of(tools.strip().split("\\s+")));
        } else if (rawTools instanceof Collection<?> tools) {
            tools.forEach(t -> allowedTools.add(String.valueOf(t)));
        } else if (rawTools != null) {
            problems.add("allowed-tools: a space-separated list of tool names");
        }
        return new Skill(folderName, description, license, compatibility, metadata, allowedTools, body, folder, problems);
    }

    /** The name SKILL.md's front matter gives, whatever folder it is in; null when it gives none. */
    static String declaredName(String text) {
        String normalized = text.replace("\r\n", "\n").replace("\uFEFF", "");
        int end = normalized.startsWith("---\n") ? normalized.indexOf("\n---", 3) : -1;
        if (end < 0) {
            return null;
        }
        Object name = fields(normalized.substring(4, end + 1), new ArrayList<>()).get("name");
        return name instanceof String declared ? declared.strip() : null;
    }

    /**
     * The front matter's fields: strict YAML first; where that fails, "key: value" lines (the value
     * is the rest of the line, colons and all) with an indented block under metadata.
     */
    private static Map<String, Object> fields(String yaml, List<String> problems) {
        try {
            Object parsed = YAML.readValue(yaml.isBlank() ? "{}" : yaml, Object.class);
            if (parsed instanceof Map<?, ?> map) {
                Map<String, Object> fields = new LinkedHashMap<>();
                map.forEach((k, v) -> fields.put(String.valueOf(k), v));
                return fields;
            }
            problems.add("front matter: must be a YAML map of fields (name, description, …)");
            return Map.of();
        } catch (JsonProcessingException strictFailed) {
            Map<String, Object> fields = new LinkedHashMap<>();
            Map<String, Object> metadata = null;
            for (String line : yaml.split("\n")) {
                if (line.isBlank() || line.stripLeading().startsWith("#")) {
                    continue;
                }
                if (Character.isWhitespace(line.charAt(0)) && metadata != null) {
                    java.util.regex.Matcher nested = TOP_LEVEL.matcher(line.strip());
                    if (nested.matches()) {
                        metadata.put(nested.group(1), unquote(nested.group(2)));
                    }
                    continue;
                }
                java.util.regex.Matcher field = TOP_LEVEL.matcher(line);
                if (!field.matches()) {
                    problems.add("front matter: not YAML, and the line \"" + shorten(line) + "\" is not \"field: value\" ("
                            + strictFailed.getOriginalMessage() + ")");
                    return fields;
                }
                if (field.group(2) == null || field.group(2).isBlank()) {
                    metadata = new LinkedHashMap<>();
                    fields.put(field.group(1), metadata);
                } else {
                    metadata = null;
                    fields.put(field.group(1), unquote(field.group(2)));
                }
            }
            return fields;
        }
    }

    private static String unquote(String value) {
        String v = value == null ? "" : value.strip();
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    private static String text(Map<String, Object> fields, String field, List<String> problems) {
        Object value = fields.get(field);
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> || value instanceof Collection<?>) {
            problems.add(field + ": must be text");
            return null;
        }
        return String.valueOf(value).strip();
    }

    /** SKILL.md for a new skill: the front matter as YAML (quoted where YAML needs it), then the body. */
    public static String write(String name, String description, String body) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", name);
        fields.put("description", description);
        try {
            return "---\n" + YAML.writeValueAsString(fields) + "---\n\n" + body.strip() + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String shorten(String text) {
        String line = text.replace('\n', ' ');
        return line.length() <= 80 ? line : line.substring(0, 79) + "…";
    }
}
