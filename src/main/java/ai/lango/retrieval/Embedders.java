package ai.lango.retrieval;

import ai.lango.config.LangoSettings;
import ai.lango.provider.ProviderCatalog;
import java.nio.file.Path;

/** The embedder lango.embedding.* asks for, with each provider's default model. */
public final class Embedders {

    private Embedders() {
    }

    /** The default model of each provider (the local one has exactly one). */
    public static String defaultModel(String provider) {
        return switch (provider) {
            case LangoSettings.Retrieval.LOCAL -> LangoSettings.Retrieval.LOCAL_MODEL;
            case "openai" -> "text-embedding-3-small";
            case "gemini" -> "text-embedding-004";
            case "ollama" -> "nomic-embed-text";
            default -> throw new IllegalArgumentException("unknown embedding provider " + provider);
        };
    }

    /** @param cacheDir where the local model's tokenizer may unpack its native library */
    public static Embedder create(LangoSettings.Retrieval settings, Path cacheDir) {
        String provider = settings.provider();
        String model = settings.model().orElse(defaultModel(provider));
        return switch (provider) {
            case LangoSettings.Retrieval.LOCAL -> new LocalEmbedder(cacheDir, null);
            case "gemini" -> new RemoteEmbedder(provider, RemoteEmbedder.Wire.GEMINI,
                    settings.baseUrl().orElse(ProviderCatalog.defaultBaseUrl(provider)), model, settings.apiKey().orElse(null));
            default -> new RemoteEmbedder(provider, RemoteEmbedder.Wire.OPENAI,
                    settings.baseUrl().orElse(ProviderCatalog.defaultBaseUrl(provider)), model, settings.apiKey().orElse(null));
        };
    }
}
