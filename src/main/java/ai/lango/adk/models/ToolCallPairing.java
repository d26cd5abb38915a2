package ai.lango.adk.models;

import ai.lango.provider.ChatMessage.Role;
import ai.lango.provider.ChatMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * No request leaves with an unanswered tool call. ADK for Java drops a call to an unknown tool
 * without a response, and OpenAI and Anthropic reject a conversation with an unanswered call
 * (HTTP 400). An unanswered call gets an error result right after its answered siblings, and a
 * tool result that answers no call is dropped.
 */
final class ToolCallPairing {

    private ToolCallPairing() {
    }

    /**
     * The names the agent framework uses for its own calls: a model that calls one (a confirmation it
     * makes up) would otherwise be taken for the framework, or have its call hidden from it and make it
     * again until the turn limit. Such a call is renamed as it arrives, so it is a call of no tool.
     */
    static final java.util.Set<String> RESERVED = java.util.Set.of("adk_request_confirmation", "adk_request_credential");
    static final String RESERVED_PREFIX = "reserved__";

    /** The name a model's call goes on with: a reserved one marked, so that no tool answers to it. */
    static String guarded(String name) {
        return name != null && RESERVED.contains(name) ? RESERVED_PREFIX + name : name;
    }

    static String missingResult(String name) {
        String shown = name.startsWith(RESERVED_PREFIX) ? name.substring(RESERVED_PREFIX.length()) : name;
        String why = name.startsWith(RESERVED_PREFIX) ? " is reserved by the server and cannot be called; no result was produced"
                : " is not available; no result was produced";
        return "{\"error\":\"tool \\\"" + shown.replace("\"", "'") + "\\\"" + why + "\"}";
    }

    static List<ChatMessage> repair(List<ChatMessage> messages) {
        List<ChatMessage> repaired = new ArrayList<>(messages.size());
        int i = 0;
        while (i < messages.size()) {
            ChatMessage message = messages.get(i++);
            if (message.role() == Role.TOOL) {
                continue; // a result with no call right before it answers nothing
            }
            repaired.add(message);
            if (message.role() != Role.ASSISTANT || message.toolCalls().isEmpty()) {
                continue;
            }
            Set<String> open = new HashSet<>();
            message.toolCalls().forEach(call -> open.add(call.id()));
            while (i < messages.size() && messages.get(i).role() == Role.TOOL) {
                ChatMessage result = messages.get(i++);
                if (open.remove(result.toolCallId())) {
                    repaired.add(result);
                }
            }
            for (ChatMessage.ToolCall call : message.toolCalls()) {
                if (open.contains(call.id())) {
                    repaired.add(ChatMessage.tool(call.id(), call.name(), missingResult(call.name())));
                }
            }
        }
        return repaired;
    }
}
