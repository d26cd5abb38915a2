package ai.lango.provider;

import java.util.List;

/**
 * One call to a model: the conversation so far, the tools it may call, sampling settings.
 * {@code temperature} and {@code maxTokens} are null when the provider's default applies.
 */
public record ChatRequest(String model, List<ChatMessage> messages, List<ToolDeclaration> tools,
                          Double temperature, Integer maxTokens) {
    public ChatRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
