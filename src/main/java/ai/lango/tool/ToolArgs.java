package ai.lango.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reading a tool's arguments, with errors that name the parameter, and the JSON Schema of its parameters. */
public final class ToolArgs {

    private ToolArgs() {
    }

    /** A required string, empty or blank included (a file's new content may be empty). */
    public static String anyText(Map<String, Object> args, String name) throws ToolException {
        Object value = args.get(name);
        if (value == null) {
            throw new ToolException("missing required parameter \"" + name + "\"");
        }
        if (!(value instanceof String text)) {
            throw new ToolException("parameter \"" + name + "\" must be a string");
        }
        return text;
    }

    /** A required whole number (a number without a fraction, or a string of one). */
    public static int wholeNumber(Map<String, Object> args, String name) throws ToolException {
        Object value = args.get(name);
        if (value == null) {
            throw new ToolException("missing required parameter \"" + name + "\"");
        }
        if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())) {
            return number.intValue();
        }
        if (value instanceof String text) {
            try {
                return Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                // answered below
            }
        }
        throw new ToolException("parameter \"" + name + "\" must be a whole number");
    }

    /** A required, non-blank string. */
    public static String required(Map<String, Object> args, String name) throws ToolException {
        String value = anyText(args, name);
        if (value.isBlank()) {
            throw new ToolException("parameter \"" + name + "\" must not be empty");
        }
        return value;
    }

    /**
     * A required string of at most {@code max} characters; a longer one is an error that names the
     * limit and where it is set ({@code limit}), so the model can shorten it instead.
     */
    public static String required(Map<String, Object> args, String name, int max, String limit) throws ToolException {
        return within(name, required(args, name), max, limit);
    }

    /** An optional string of at most {@code max} characters (see {@link #required(Map, String, int, String)}). */
    public static String optional(Map<String, Object> args, String name, int max, String limit) throws ToolException {
        String value = optional(args, name);
        return value == null ? null : within(name, value, max, limit);
    }

    private static String within(String name, String value, int max, String limit) throws ToolException {
        if (value.length() > max) {
            throw new ToolException("parameter \"" + name + "\" has " + value.length() + " characters; at most " + max
                    + " are accepted (" + limit + "): save a summary, or split it into several");
        }
        return value;
    }

    /** An optional string: null when absent or blank. */
    public static String optional(Map<String, Object> args, String name) throws ToolException {
        Object value = args.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw new ToolException("parameter \"" + name + "\" must be a string");
        }
        return text.isBlank() ? null : text;
    }

    /** An optional list of strings (a single string counts as a list of one); empty when absent. */
    public static List<String> strings(Map<String, Object> args, String name) throws ToolException {
        Object value = args.get(name);
        if (value == null) {
            return List.of();
        }
        if (value instanceof String text) {
            return List.of(text);
        }
        if (!(value instanceof List<?> list)) {
            throw new ToolException("parameter \"" + name + "\" must be an array of strings");
        }
        List<String> strings = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof String text)) {
                throw new ToolException("parameter \"" + name + "\" must be an array of strings");
            }
            strings.add(text);
        }
        return strings;
    }

    /** An optional whole number within [min, max]: {@code fallback} when absent. */
    public static int integer(Map<String, Object> args, String name, int fallback, int min, int max) throws ToolException {
        if (args.get(name) == null) {
            return fallback;
        }
        int value = wholeNumber(args, name);
        if (value < min || value > max) {
            throw new ToolException("parameter \"" + name + "\" must be from " + min + " to " + max);
        }
        return value;
    }

    public static Map<String, Object> integer(String description) {
        return Map.of("type", "integer", "description", description);
    }

    /** A JSON Schema object; {@code required} names the required properties. */
    public static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        return Map.of("type", "object", "properties", properties, "required", required);
    }

    public static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    public static Map<String, Object> oneOf(List<String> values, String description) {
        return Map.of("type", "string", "enum", values, "description", description);
    }

    public static Map<String, Object> stringArray(String description) {
        return Map.of("type", "array", "items", Map.of("type", "string"), "description", description);
    }
}
