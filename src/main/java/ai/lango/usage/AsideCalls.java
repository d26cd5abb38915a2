package ai.lango.usage;

import ai.lango.provider.ChatRequest;
import ai.lango.provider.Completion;
import ai.lango.provider.StreamEvent;

/**
 * The usage of a model call made aside from any turn (the observer's, the reflector's, the graph's extraction),
 * as {@link Completion} reports it: counted and stored for its user and session under its purpose, estimated
 * by {@code estimate} (the session's token estimate) when the provider reported none.
 */
public final class AsideCalls {

    private AsideCalls() {
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * The input tokens of {@code request} by {@code estimate}, for a provider that reported none: everything it sends —
     * its messages, their tool calls' arguments, and the tools it offers (name, description and schema as JSON), which
     * with many tools (an MCP server's dozens) outweigh a short conversation many times.
     */
    public static long estimatedInput(ChatRequest request, java.util.function.ToLongFunction<String> estimate) {
        java.util.function.ToLongFunction<String> of = text -> text == null ? 0 : estimate.applyAsLong(text);
        long messages = request.messages().stream().mapToLong(m -> of.applyAsLong(m.content())
                + m.toolCalls().stream().mapToLong(c -> of.applyAsLong(c.arguments())).sum()).sum();
        long tools = 0;
        for (ai.lango.provider.ToolDeclaration tool : request.tools()) {
            String schema;
            try {
                schema = JSON.writeValueAsString(tool.parameters());
            } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
                schema = String.valueOf(tool.parameters());
            }
            tools += of.applyAsLong(tool.name()) + of.applyAsLong(tool.description()) + of.applyAsLong(schema);
        }
        return messages + tools;
    }

    /** What {@link Completion#complete} tells, recorded in {@code ledger} (nothing when there is none). */
    public static Completion.Used recordedIn(UsageLedger ledger, String userId, String sessionKey, String purpose, String provider,
                                             java.util.function.ToLongFunction<String> estimate) {
        if (ledger == null) {
            return (request, answer, reported) -> { };
        }
        return (ChatRequest request, String answer, StreamEvent.Usage reported) -> {
            long input = reported != null ? reported.inputTokens() : estimatedInput(request, estimate);
            long output = reported != null ? reported.outputTokens() : estimate.applyAsLong(answer);
            ledger.madeAside(ledger.call(userId, sessionKey, purpose, provider, request.model(), purpose, input, output,
                    reported == null ? 0 : reported.cachedTokens(), reported == null));
        };
    }
}
