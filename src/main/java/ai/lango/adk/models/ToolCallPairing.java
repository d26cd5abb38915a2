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

    static String missingResult(String name) {
        return "{\"error\":\"tool \\\"" + name.replace("\"", "'") + "\\\" is not available; no result was produced\"}";
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
