package ai.lango.skills;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A skill as read from its folder: the front matter's fields, the instructions (the body after the
 * front matter), and what is wrong with it, each problem naming the field and the rule. A skill
 * with problems is listed, never used.
 */
public record Skill(String name, String description, String license, String compatibility, Map<String, String> metadata,
                    List<String> allowedTools, String body, Path folder, List<String> problems) {

    public Skill {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
        problems = List.copyOf(problems);
    }

    public boolean usable() {
        return problems.isEmpty();
    }
}
