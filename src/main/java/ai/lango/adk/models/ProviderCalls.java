package ai.lango.adk.models;

import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Retry;

/**
 * Opens provider calls with MicroProfile Fault Tolerance: 429, 5xx, timeouts and refused
 * connections are retried with backoff; nothing is retried once the answer is being read.
 * Tunable per MicroProfile FT, e.g. {@code ai.lango.adk.models.ProviderCalls/open/Retry/maxRetries}.
 */
@ApplicationScoped
public class ProviderCalls {

    /** Carries a retryable failure through the interceptor; {@link #open} callers get the cause. */
    static final class RetryableFailure extends RuntimeException {
        RetryableFailure(ProviderException cause) {
            super(cause.getMessage(), cause, false, false);
        }

        ProviderException failure() {
            return (ProviderException) getCause();
        }
    }

    /** Opens the call, counting each attempt in {@code attempts}. */
    @Retry(maxRetries = 3, delay = 500, jitter = 200, maxDuration = 60_000, retryOn = RetryableFailure.class)
    public Provider.OpenStream open(Provider provider, ChatRequest request, AtomicInteger attempts) {
        attempts.incrementAndGet();
        try {
            return provider.open(request);
        } catch (ProviderException e) {
            if (e.retryable()) {
                throw new RetryableFailure(e);
            }
            throw e;
        }
    }

    /** The failure behind a call that stayed failed after its retries. */
    static ProviderException unwrap(RuntimeException e) {
        return e instanceof RetryableFailure retryable ? retryable.failure() : (ProviderException) e;
    }
}
