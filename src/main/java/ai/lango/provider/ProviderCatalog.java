package ai.lango.provider;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything Lango knows about the model providers, in one place: their ids, where they answer by
 * default, the configuration keys that configure them, how much history each model family gets,
 * and the client for each.
 */
public final class ProviderCatalog {

    public static final String OPENAI = "openai";
    public static final String ANTHROPIC = "anthropic";
    public static final String GEMINI = "gemini";
    public static final String OLLAMA = "ollama";

    /** The accepted ids, in the order they are listed to users. */
    public static final List<String> IDS = List.of(OPENAI, ANTHROPIC, GEMINI, OLLAMA);

    /** lango.providers.<id>.<name>: where a provider's settings live. */
    public static final String CONFIG_PREFIX = "lango.providers.";
    public static final String API_KEY = "api-key";
    public static final String BASE_URL = "base-url";

    /** The configuration key of one of a provider's settings, e.g. lango.providers.openai.api-key. */
    public static String configKey(String id, String name) {
        return CONFIG_PREFIX + id + "." + name;
    }

    /** The public base URL of a known provider id. */
    public static String defaultBaseUrl(String id) {
        return switch (id) {
            case OPENAI -> "https://api.openai.com/v1";
            case ANTHROPIC -> "https://api.anthropic.com";
            case GEMINI -> "https://generativelanguage.googleapis.com";
            // Ollama serves the OpenAI format under /v1.
            case OLLAMA -> "http://localhost:11434/v1";
            default -> throw unknown(id);
        };
    }

    /**
     * The history a model of this family gets, about half its context window; the lower-cased name
     * is checked in this order. Empty for a model of no known family.
     */
    public static OptionalInt historyBudget(String model) {
        if (model == null) {
            return OptionalInt.empty();
        }
        String name = model.toLowerCase(Locale.ROOT);
        if (name.contains("claude")) {
            return OptionalInt.of(100000);
        }
        if (name.contains("gemini")) {
            return OptionalInt.of(200000);
        }
        if (name.contains("gpt-4o") || name.contains("gpt-4-turbo")) {
            return OptionalInt.of(64000);
        }
        if (name.contains("gpt-4")) {
            return OptionalInt.of(32000);
        }
        if (name.contains("gpt-3.5")) {
            return OptionalInt.of(8000);
        }
        return OptionalInt.empty();
    }

    private ProviderCatalog() {
    }

    /** The provider {@code id} at its base URL (its public one when empty), with its key if any, default timeouts. */
    public static Provider create(String id, Optional<String> baseUrl, Optional<String> apiKey) {
        return create(id, baseUrl, apiKey, null);
    }

    /** @param readTimeout the longest silence of the model (null: the default) */
    public static Provider create(String id, Optional<String> baseUrl, Optional<String> apiKey, java.time.Duration readTimeout) {
        return create(new ProviderSettings(id, baseUrl.orElse(defaultBaseUrl(id)), apiKey.orElse(null), null, readTimeout));
    }

    /** The client for {@code settings}, masking every known secret in what it sends and what it reads (see {@link MaskedProvider}). */
    public static Provider create(ProviderSettings settings) {
        return new MaskedProvider(switch (settings.id()) {
            // Ollama's /v1 endpoint speaks the OpenAI format.
            case OPENAI, OLLAMA -> new OpenAiProvider(settings);
            case ANTHROPIC -> new AnthropicProvider(settings);
            case GEMINI -> new GeminiProvider(settings);
            default -> throw unknown(settings.id());
        });
    }

    static IllegalArgumentException unknown(String id) {
        return new IllegalArgumentException("unknown model provider \"" + id + "\"; accepted: " + String.join(", ", IDS));
    }
}
