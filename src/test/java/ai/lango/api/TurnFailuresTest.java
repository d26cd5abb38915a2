package ai.lango.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.provider.ProviderException.Kind;
import ai.lango.provider.ProviderException;
import ai.lango.turn.MessageTooLargeException;
import jakarta.ws.rs.core.Response.Status;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class TurnFailuresTest {

    private static TurnFailures.Failure of(Throwable cause) {
        return TurnFailures.of(new RuntimeException("turn failed", new IllegalStateException("wrapped", cause)));
    }

    @Test
    void providerFailuresAreTheProvidersFaultWithCodesThatNameThem() {
        assertEquals(new TurnFailures.Failure(Status.SERVICE_UNAVAILABLE, "provider_rate_limited", Optional.of(Duration.ofSeconds(7))),
                of(new ProviderException("openai", Kind.RATE_LIMITED, "429", null, Duration.ofSeconds(7))));
        assertEquals(Status.BAD_GATEWAY, of(new ProviderException("openai", Kind.SERVER_ERROR, "500")).status());
        assertEquals(Status.GATEWAY_TIMEOUT, of(new ProviderException("openai", Kind.TIMEOUT, "slow")).status());
        assertEquals("provider_timeout", of(new ProviderException("openai", Kind.TIMEOUT, "slow")).code());
        assertEquals("provider_unreachable", of(new ProviderException("openai", Kind.CONNECTION, "refused")).code());
        assertEquals("provider_authentication_failed", of(new ProviderException("openai", Kind.AUTHENTICATION, "401")).code());
        assertEquals(Status.SERVICE_UNAVAILABLE, of(new ProviderException("none", Kind.NOT_CONFIGURED, "no model")).status());
    }

    @Test
    void theCallersMistakesAreTheirs() {
        assertEquals("message_too_large", of(new MessageTooLargeException(90_000, 64_000)).code());
        assertEquals(Status.GATEWAY_TIMEOUT, of(new TimeoutException()).status());
        assertEquals(new TurnFailures.Failure(Status.INTERNAL_SERVER_ERROR, "run_failed", Optional.empty()),
                TurnFailures.of(new IllegalStateException("boom")));
    }
}
