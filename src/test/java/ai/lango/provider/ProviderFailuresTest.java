package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProviderFailuresTest {

    @Test
    void aFailedCallIsOneLineOfFieldsWithoutTheMessage() {
        ProviderException failure = new ProviderException("openai", ProviderException.Kind.BAD_REQUEST,
                "openai rejected the request (HTTP 400): the user said my-secret-diary", null, null, 400,
                "context_length_exceeded");
        String line = ProviderFailures.line(failure, "gpt-4o", 1, Duration.ofMillis(42));
        assertEquals("model call failed: provider=openai model=gpt-4o status=400 error=bad_request"
                + " code=context_length_exceeded attempts=1 duration=42ms", line);
        assertFalse(line.contains("diary"), "never the conversation");
    }

    @Test
    void aCallWithoutAnAnswerSaysSoAndCountsItsRetries() {
        ProviderException refused = new ProviderException("ollama", ProviderException.Kind.CONNECTION, "refused");
        assertEquals("model call failed: provider=ollama model=llama3 status=none error=connection attempts=4"
                + " duration=2100ms", ProviderFailures.line(refused, "llama3", 4, Duration.ofMillis(2100)));
    }

    @Test
    void theProvidersErrorCodeIsTakenFromItsErrorBody() {
        assertEquals(Optional.of("invalid_api_key"),
                HttpTransport.errorCode("{\"error\":{\"message\":\"bad key sk-1\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}"));
        assertEquals(Optional.of("overloaded_error"),
                HttpTransport.errorCode("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
        assertEquals(Optional.of("RESOURCE_EXHAUSTED"),
                HttpTransport.errorCode("[{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\"}}]"));
        assertEquals(Optional.empty(), HttpTransport.errorCode("<html>bad gateway</html>"));
        assertEquals(Optional.empty(), HttpTransport.errorCode("{\"error\":{\"code\":\"has spaces and more\"}}"));
    }
}
