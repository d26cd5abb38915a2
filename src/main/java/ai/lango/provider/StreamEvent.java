package ai.lango.provider;

/**
 * What a provider's stream yields. A stream ends with exactly one {@link Done} or one
 * {@link Error}; nothing follows either.
 */
public sealed interface StreamEvent {

    /** A piece of the answer's text, in order. */
    record TextDelta(String text) implements StreamEvent {
    }

    /** A complete tool call: arguments are the whole JSON object text (deltas already joined). */
    record ToolCallEvent(String id, String name, String arguments) implements StreamEvent {
    }

    /** Token counts, when the provider reports them. */
    record Usage(int inputTokens, int outputTokens, int cachedTokens) implements StreamEvent {

        /** Counts without cached input. */
        public Usage(int inputTokens, int outputTokens) {
            this(inputTokens, outputTokens, 0);
        }
    }

    /** The answer is complete. {@code finishReason} as the provider said it (may be null). */
    record Done(String finishReason) implements StreamEvent {
    }

    /** The call failed; the stream ends here. */
    record Error(ProviderException error) implements StreamEvent {
    }
}
