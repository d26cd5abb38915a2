package ai.lango.tool;

import java.util.Map;

/**
 * The one way to write a tool: its declaration — family, name, safety, description and the JSON
 * Schema of its arguments — given once to this constructor, and what a call does. A tool too small
 * for a class of its own is {@link #of}.
 */
public abstract class DeclaredTool implements Tool {

    private final ToolFamily family;
    private final String name;
    private final Safety safety;
    private final String description;
    private final Map<String, Object> parameters;

    protected DeclaredTool(ToolFamily family, String name, Safety safety, String description, Map<String, Object> parameters) {
        this.family = family;
        this.name = name;
        this.safety = safety;
        this.description = description;
        this.parameters = parameters;
    }

    /** What a call of a tool made by {@link #of} does. */
    @FunctionalInterface
    public interface Handler {
        Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception;
    }

    /** A tool made of its declaration and a handler. */
    public static DeclaredTool of(ToolFamily family, String name, Safety safety, String description,
                                  Map<String, Object> parameters, Handler handler) {
        return new DeclaredTool(family, name, safety, description, parameters) {
            @Override
            public Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
                return handler.call(args, caller);
            }
        };
    }

    @Override
    public final ToolFamily family() {
        return family;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Safety safety() {
        return safety;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Map<String, Object> parameters() {
        return parameters;
    }
}
