package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProvidersTest {

    @Test
    void eachKnownIdGetsItsWireFormat() {
        assertInstanceOf(OpenAiProvider.class, Providers.create(ProviderSettings.defaults("openai", "k")));
        assertInstanceOf(OpenAiProvider.class, Providers.create(ProviderSettings.defaults("ollama", null)));
        assertInstanceOf(AnthropicProvider.class, Providers.create(ProviderSettings.defaults("anthropic", "k")));
        assertInstanceOf(GeminiProvider.class, Providers.create(ProviderSettings.defaults("gemini", "k")));
        assertEquals("ollama", Providers.create(ProviderSettings.defaults("ollama", null)).id());
    }

    @Test
    void unknownIdIsRejectedNamingTheAcceptedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Providers.create(
                new ProviderSettings("mistral", "http://localhost:1", null, null, null)));

        assertTrue(e.getMessage().contains("mistral"), e.getMessage());
        assertTrue(e.getMessage().contains("openai, anthropic, gemini, ollama"), e.getMessage());
    }

    @Test
    void defaultsPointAtThePublicEndpoints() {
        assertEquals(URI.create("https://api.openai.com/v1"), ProviderSettings.defaults("openai", null).baseUrl());
        assertEquals(URI.create("https://api.anthropic.com"), ProviderSettings.defaults("anthropic", null).baseUrl());
        assertEquals(URI.create("https://generativelanguage.googleapis.com"),
                ProviderSettings.defaults("gemini", null).baseUrl());
        assertEquals(URI.create("http://localhost:11434/v1"), ProviderSettings.defaults("ollama", null).baseUrl());
    }

    @Test
    void settingsNeverPrintTheKey() {
        ProviderSettings settings = new ProviderSettings("openai", "https://api.openai.com/v1", "sk-test-SECRET",
                Duration.ofSeconds(3), Duration.ofSeconds(30));

        assertFalse(settings.toString().contains("SECRET"), settings.toString());
        assertTrue(settings.toString().contains("apiKey=****"), settings.toString());
        assertEquals("lango.providers.openai.api-key", settings.apiKeyConfigKey());
    }

    @Test
    void blankKeyMeansNoKeyAndMissingTimeoutsTakeDefaults() {
        ProviderSettings settings = new ProviderSettings("ollama", "http://localhost:11434/v1", "  ", null, null);

        assertNull(settings.apiKey());
        assertEquals(ProviderSettings.DEFAULT_CONNECT_TIMEOUT, settings.connectTimeout());
        assertEquals(ProviderSettings.DEFAULT_READ_TIMEOUT, settings.readTimeout());
    }

    @Test
    void nonPositiveTimeoutsAndRelativeUrlsAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new ProviderSettings("openai", "http://x", null, Duration.ZERO, null));
        assertThrows(IllegalArgumentException.class,
                () -> new ProviderSettings("openai", "api.openai.com/v1", null, null, null));
    }

    @Test
    void baseUrlWithOrWithoutTrailingSlashResolvesTheSamePath() {
        HttpTransport with = new HttpTransport(ProviderSettings.defaults("openai", null).withBaseUrl("http://h/v1/"));
        HttpTransport without = new HttpTransport(ProviderSettings.defaults("openai", null).withBaseUrl("http://h/v1"));

        assertEquals(URI.create("http://h/v1/chat/completions"), with.resolve("/chat/completions"));
        assertEquals(URI.create("http://h/v1/chat/completions"), without.resolve("/chat/completions"));
    }
}
