package ai.lango.provider;

import java.util.Map;

/** A tool offered to the model; {@code parameters} is a JSON Schema object as a map. */
public record ToolDeclaration(String name, String description, Map<String, Object> parameters) {
}
