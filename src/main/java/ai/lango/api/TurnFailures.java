package ai.lango.api;

import ai.lango.provider.ProviderException;
import ai.lango.turn.MessageTooLargeException;
import ai.lango.turn.TurnAbortedException;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * What a failed turn is, for a client: whose fault (the caller's 4xx, the model provider's
 * 502/503/504, Lango's 500), a code that names it, and how long to wait when the provider said so.
 * The same codes go out on /ws.
 */
public final class TurnFailures {

    /** @param retryAfter the provider's Retry-After, passed on as it came */
    public record Failure(Response.Status status, String code, Optional<Duration> retryAfter) {

        /** The JSON error response, with Retry-After when the provider gave one. */
        public Response response(String message) {
            return ApiError.of(status, code, message, retryAfter);
        }
    }

    private TurnFailures() {
    }

    public static Failure of(Throwable turnError) {
        for (Throwable cause = turnError; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProviderException provider) {
                return provider(provider);
            }
            if (cause instanceof MessageTooLargeException) {
                return new Failure(Response.Status.BAD_REQUEST, MessageTooLargeException.CODE, Optional.empty());
            }
            if (cause instanceof ai.lango.turn.BudgetExceededException budget) {
                return new Failure(Response.Status.TOO_MANY_REQUESTS, "budget_exceeded", Optional.of(budget.retryAfter()));
            }
            if (cause instanceof TurnAbortedException) {
                return new Failure(Response.Status.CONFLICT, "aborted", Optional.empty());
            }
            if (cause instanceof TimeoutException) {
                return new Failure(Response.Status.GATEWAY_TIMEOUT, "turn_timeout", Optional.empty());
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return new Failure(Response.Status.INTERNAL_SERVER_ERROR, "run_failed", Optional.empty());
    }

    private static Failure provider(ProviderException e) {
        return switch (e.kind()) {
            case RATE_LIMITED -> new Failure(Response.Status.SERVICE_UNAVAILABLE, "provider_rate_limited", e.retryAfter());
            case SERVER_ERROR -> new Failure(Response.Status.BAD_GATEWAY, "provider_error", e.retryAfter());
            case TIMEOUT -> new Failure(Response.Status.GATEWAY_TIMEOUT, "provider_timeout", Optional.empty());
            case CONNECTION -> new Failure(Response.Status.BAD_GATEWAY, "provider_unreachable", Optional.empty());
            case AUTHENTICATION -> new Failure(Response.Status.BAD_GATEWAY, "provider_authentication_failed", Optional.empty());
            case BAD_REQUEST -> new Failure(Response.Status.BAD_GATEWAY, "provider_rejected_request", Optional.empty());
            case BROKEN_STREAM -> new Failure(Response.Status.BAD_GATEWAY, "provider_stream_broken", Optional.empty());
            case NOT_CONFIGURED -> new Failure(Response.Status.SERVICE_UNAVAILABLE, "no_model", Optional.empty());
        };
    }
}
