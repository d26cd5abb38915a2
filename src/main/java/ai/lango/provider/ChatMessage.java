package ai.lango.provider;

import java.util.List;

/**
 * A message in a provider-neutral shape. An assistant message may carry tool calls; a tool message
 * answers one call ({@code toolCallId}, {@code toolName}) with {@code content} (usually JSON).
 */
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId, String toolName) {

    public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

    /** A call the model made: its id, the tool's name and the arguments as a JSON object text. */
    public record ToolCall(String id, String name, String arguments) {
    }

    public ChatMessage {
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String text) {
        return new ChatMessage(Role.SYSTEM, text, List.of(), null, null);
    }

    public static ChatMessage user(String text) {
        return new ChatMessage(Role.USER, text, List.of(), null, null);
    }

    public static ChatMessage assistant(String text, List<ToolCall> calls) {
        return new ChatMessage(Role.ASSISTANT, text, calls, null, null);
    }

    public static ChatMessage tool(String callId, String name, String result) {
        return new ChatMessage(Role.TOOL, result, List.of(), callId, name);
    }
}
