package ai.lango.session;

/**
 * A function call or its response, as stored with a message. {@code input} is the JSON of a
 * call's arguments (null on a response); {@code output} the JSON of a response (null on a call).
 */
public record ToolCall(String id, String name, String input, String output) {

    /** The id a call or response without one is stored under. */
    public static String syntheticId(String name) {
        return "call_" + name;
    }
}
