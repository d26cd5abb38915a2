package ai.lango.tool;

import java.util.List;
import java.util.Map;

/** Reading a tool's arguments, with errors that name the parameter. */
final class Args {

    private Args() {
    }

    static String string(Map<String, Object> args, String name) throws ToolException {
        Object value = args.get(name);
        if (value == null) {
            throw new ToolException("missing required parameter \"" + name + "\"");
        }
        if (!(value instanceof String text)) {
            throw new ToolException("parameter \"" + name + "\" must be a string");
        }
        return text;
    }

    static int integer(Map<String, Object> args, String name) throws ToolException {
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
                // fall through to the error below
            }
        }
        throw new ToolException("parameter \"" + name + "\" must be a whole number");
    }

    /** A JSON Schema object with string/integer properties, all of them required unless listed optional. */
    static Map<String, Object> schema(Map<String, Map<String, Object>> properties) {
        return schema(properties, properties.keySet().stream().sorted().toList());
    }

    /** A schema where only {@code required} must be given. */
    static Map<String, Object> schema(Map<String, Map<String, Object>> properties, List<String> required) {
        return Map.of("type", "object", "properties", properties, "required", required);
    }

    static Map<String, Object> stringProperty(String description) {
        return Map.of("type", "string", "description", description);
    }

    static Map<String, Object> integerProperty(String description) {
        return Map.of("type", "integer", "description", description);
    }
}
