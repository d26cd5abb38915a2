package ai.lango.provider;

import ai.lango.masking.Audience;
import ai.lango.turn.TurnAbort;
import java.util.List;

/**
 * One call to a model: the conversation so far, the tools it may call, sampling settings, who reads
 * what it answers ({@code reader}: what the model is sent and what it answers are masked for them), and
 * how its wait is ended when its turn is stopped ({@code abort}). {@code temperature} and
 * {@code maxTokens} are null when the provider's default applies.
 */
public record ChatRequest(String model, List<ChatMessage> messages, List<ToolDeclaration> tools,
                          Double temperature, Integer maxTokens, Audience reader, TurnAbort abort) {
    public ChatRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        reader = reader == null ? Audience.NOBODY : reader;
        abort = abort == null ? new TurnAbort() : abort;
    }

    /** A call whose answer nobody in particular reads (a call on the side: every secret is unnamed to it), never stopped. */
    public ChatRequest(String model, List<ChatMessage> messages, List<ToolDeclaration> tools, Double temperature,
                       Integer maxTokens) {
        this(model, messages, tools, temperature, maxTokens, Audience.NOBODY, null);
    }

    /** The same call, made for a turn: read by {@code reader}, its wait ended by {@code abort}. */
    public ChatRequest forTurn(Audience reader, TurnAbort abort) {
        return new ChatRequest(model, messages, tools, temperature, maxTokens, reader, abort);
    }
}
