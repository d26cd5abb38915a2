package ai.lango.provider;

import ai.lango.masking.Audience;
import java.util.List;

/**
 * One call to a model: the conversation so far, the tools it may call, sampling settings, and who
 * reads what it answers ({@code reader}: what the model is sent and what it answers are masked for
 * them). {@code temperature} and {@code maxTokens} are null when the provider's default applies.
 */
public record ChatRequest(String model, List<ChatMessage> messages, List<ToolDeclaration> tools,
                          Double temperature, Integer maxTokens, Audience reader) {
    public ChatRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        reader = reader == null ? Audience.NOBODY : reader;
    }

    /** A call whose answer nobody in particular reads (a call on the side: every secret is unnamed to it). */
    public ChatRequest(String model, List<ChatMessage> messages, List<ToolDeclaration> tools, Double temperature,
                       Integer maxTokens) {
        this(model, messages, tools, temperature, maxTokens, Audience.NOBODY);
    }

    /** The same call, read by {@code reader}. */
    public ChatRequest readBy(Audience reader) {
        return new ChatRequest(model, messages, tools, temperature, maxTokens, reader);
    }
}
