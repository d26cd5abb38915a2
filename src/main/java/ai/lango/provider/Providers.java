package ai.lango.provider;

import java.util.List;

/** Creates the provider named by a settings' id. */
public final class Providers {

    public static final String OPENAI = "openai";
    public static final String ANTHROPIC = "anthropic";
    public static final String GEMINI = "gemini";
    public static final String OLLAMA = "ollama";

    /** The accepted ids, in the order they are listed to users. */
    public static final List<String> IDS = List.of(OPENAI, ANTHROPIC, GEMINI, OLLAMA);

    private Providers() {
    }

    public static Provider create(ProviderSettings settings) {
        return switch (settings.id()) {
            // Ollama's /v1 endpoint speaks the OpenAI format.
            case OPENAI, OLLAMA -> new OpenAiProvider(settings);
            case ANTHROPIC -> new AnthropicProvider(settings);
            case GEMINI -> new GeminiProvider(settings);
            default -> throw unknown(settings.id());
        };
    }

    static IllegalArgumentException unknown(String id) {
        return new IllegalArgumentException("unknown model provider \"" + id + "\"; accepted: " + String.join(", ", IDS));
    }
}
