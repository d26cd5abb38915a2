package ai.lango.turns;

import java.time.Duration;
import java.util.Optional;

/**
 * A turn (or an answer that would continue one) refused before anything of it ran or was decided: a code the
 * edges answer with, what it means in words, the HTTP status it stands for on the edges that speak HTTP, and when
 * trying again may succeed.
 */
public final class TurnRefused extends RuntimeException {

    private final String code;
    private final int status;
    private final Optional<Duration> retryAfter;

    public TurnRefused(int status, String code, String message, Optional<Duration> retryAfter) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public TurnRefused(int status, String code, String message) {
        this(status, code, message, Optional.empty());
    }

    public String code() {
        return code;
    }

    /** The HTTP status the refusal stands for (429 for a quota or budget, 404 for an unknown request, …). */
    public int status() {
        return status;
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }
}
