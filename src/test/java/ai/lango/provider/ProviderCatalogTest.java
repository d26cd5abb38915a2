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

class ProviderCatalogTest {

    @Test
    void eachKnownIdGetsItsWireFormatBehindTheMask() {
        assertInstanceOf(OpenAiProvider.class, client("openai", "k"));
        assertInstanceOf(OpenAiProvider.class, client("ollama", null));
        assertInstanceOf(AnthropicProvider.class, client("anthropic", "k"));
        assertInstanceOf(GeminiProvider.class, client("gemini", "k"));
        assertEquals("ollama", ProviderCatalog.create(defaults("ollama", null)).id());
    }

    /** The wire client inside: every provider the catalog makes masks secrets both ways (MaskedProviderTest). */
    private static Provider client(String id, String key) {
        return assertInstanceOf(MaskedProvider.class, ProviderCatalog.create(defaults(id, key))).masked();
    }

    @Test
    void unknownIdIsRejectedNamingTheAcceptedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderCatalog.create(
                new ProviderSettings("mistral", "http://localhost:1", null, null, null)));

        assertTrue(e.getMessage().contains("mistral"), e.getMessage());
        assertTrue(e.getMessage().contains("openai, anthropic, gemini, ollama"), e.getMessage());
    }

    @Test
    void defaultsPointAtThePublicEndpoints() {
        assertEquals(URI.create("https://api.openai.com/v1"), defaults("openai", null).baseUrl());
        assertEquals(URI.create("https://api.anthropic.com"), defaults("anthropic", null).baseUrl());
        assertEquals(URI.create("https://generativelanguage.googleapis.com"),
                defaults("gemini", null).baseUrl());
        assertEquals(URI.create("http://localhost:11434/v1"), defaults("ollama", null).baseUrl());
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
        HttpTransport with = new HttpTransport(new ProviderSettings("openai", "http://h/v1/", null, null, null));
        HttpTransport without = new HttpTransport(new ProviderSettings("openai", "http://h/v1", null, null, null));

        assertEquals(URI.create("http://h/v1/chat/completions"), with.resolve("/chat/completions"));
        assertEquals(URI.create("http://h/v1/chat/completions"), without.resolve("/chat/completions"));
    }

    private static ProviderSettings defaults(String id, String apiKey) {
        return new ProviderSettings(id, ProviderCatalog.defaultBaseUrl(id), apiKey, null, null);
    }

    @Test
    void historyBudgetFollowsTheModelFamilyInOrder() {
        assertEquals(100000, ProviderCatalog.historyBudget("claude-3-5-sonnet").getAsInt());
        assertEquals(200000, ProviderCatalog.historyBudget("gemini-2.0-flash").getAsInt());
        assertEquals(64000, ProviderCatalog.historyBudget("gpt-4o-mini").getAsInt());
        assertEquals(64000, ProviderCatalog.historyBudget("GPT-4-Turbo").getAsInt());
        assertEquals(32000, ProviderCatalog.historyBudget("gpt-4").getAsInt());
        assertEquals(8000, ProviderCatalog.historyBudget("gpt-3.5-turbo").getAsInt());
    }

    @Test
    void aModelOfNoKnownFamilyHasNoBudgetOfItsOwn() {
        assertTrue(ProviderCatalog.historyBudget("llama3").isEmpty());
        assertTrue(ProviderCatalog.historyBudget(null).isEmpty());
    }

    @Test
    void configurationKeysAreNamedAfterTheProvider() {
        assertEquals("lango.providers.openai.api-key", ProviderCatalog.configKey("openai", ProviderCatalog.API_KEY));
        assertEquals("lango.providers.ollama.base-url", ProviderCatalog.configKey("ollama", ProviderCatalog.BASE_URL));
    }
}
