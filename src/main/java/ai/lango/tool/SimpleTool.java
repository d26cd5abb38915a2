package ai.lango.tool;

import java.util.Map;

/** A tool made of its declaration and a handler. */
record SimpleTool(String name, String description, Safety safety, Map<String, Object> parameters, Handler handler)
        implements Tool {

    @FunctionalInterface
    interface Handler {
        Map<String, Object> call(Map<String, Object> args) throws Exception;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args) throws Exception {
        return handler.call(args);
    }
}
