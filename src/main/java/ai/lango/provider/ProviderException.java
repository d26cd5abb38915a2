package ai.lango.provider;

import java.time.Duration;
import java.util.Optional;

/**
 * A provider call that failed. Messages name the provider and, for authentication failures, the
 * configuration key to check; they never contain an API key.
 */
public class ProviderException extends RuntimeException {

    /** Why the call failed; {@link #retryable()} says whether trying again may help. */
    public enum Kind {
        AUTHENTICATION(false), RATE_LIMITED(true), SERVER_ERROR(true), BAD_REQUEST(false),
        TIMEOUT(true), CONNECTION(true), BROKEN_STREAM(false), NOT_CONFIGURED(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }
    }

    private final String provider;
    private final Kind kind;
    private final Duration retryAfter;
    private final int status;
    private final String code;

    public ProviderException(String provider, Kind kind, String message) {
        this(provider, kind, message, null);
    }

    public ProviderException(String provider, Kind kind, String message, Throwable cause) {
        this(provider, kind, message, cause, null);
    }

    /** @param retryAfter how long the provider asked callers to wait (its Retry-After header), or null */
    public ProviderException(String provider, Kind kind, String message, Throwable cause, Duration retryAfter) {
        this(provider, kind, message, cause, retryAfter, 0, null);
    }

    /**
     * @param status the HTTP status the provider answered with, 0 when it answered none
     * @param code   the provider's own error code or type ({@code invalid_api_key}, {@code
     *               context_length_exceeded}), or null
     */
    public ProviderException(String provider, Kind kind, String message, Throwable cause, Duration retryAfter,
                             int status, String code) {
        super(message, cause);
        this.provider = provider;
        this.kind = kind;
        this.retryAfter = retryAfter;
        this.status = status;
        this.code = code;
    }

    /** The HTTP status the provider answered with; 0 when there was none (a timeout, a refused connection). */
    public int status() {
        return status;
    }

    /** The provider's own error code or type, when its error body named one. */
    public Optional<String> code() {
        return Optional.ofNullable(code);
    }

    /** The wait the provider asked for with Retry-After (on a 429 or 503), when it gave one. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    public String provider() {
        return provider;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the same request may succeed if tried again (429, 5xx, timeouts, refused connections). */
    public boolean retryable() {
        return kind.retryable;
    }
}
