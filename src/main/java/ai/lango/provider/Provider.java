package ai.lango.provider;

import java.util.function.Consumer;

/**
 * A model provider behind one streaming interface. Implementations speak the provider's own wire
 * format over java.net.http and know nothing of ADK.
 *
 * <p>A call has two halves so that only the safe half is retried: {@link #open} sends the request
 * and checks the status (throwing {@link ProviderException}, retryable for 429/5xx/timeouts), and
 * {@link OpenStream#drain} reads the answer. Once reading has begun nothing is retried: a stream
 * that breaks midway ends with {@link StreamEvent.Error}, never with a silently shortened answer.
 */
public interface Provider {

    /**
     * The most characters of one answer's stream read (text, tool-call arguments, framing): far above
     * any real answer, so a tool call writing a 20 MiB file still arrives whole, far below the heap.
     */
    long MAX_ANSWER_CHARS = 32L * 1024 * 1024;

    /** "openai", "anthropic", "gemini" or "ollama". */
    String id();

    /** Sends the request; returns once the provider has accepted it (2xx). */
    OpenStream open(ChatRequest request) throws ProviderException;

    /** An accepted request whose answer has not been read yet. */
    interface OpenStream extends AutoCloseable {

        /**
         * Delivers the answer's events in order, ending with exactly one {@link StreamEvent.Done}
         * or {@link StreamEvent.Error}. Blocks until then. Never throws for provider failures.
         */
        void drain(Consumer<StreamEvent> sink);

        /** Abandons the answer (closes the connection). */
        @Override
        void close();
    }
}
