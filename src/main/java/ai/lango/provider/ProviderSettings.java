package ai.lango.provider;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach one provider. {@code readTimeout} is the longest silence tolerated while waiting for
 * the response headers or between two pieces of a streamed answer, not a limit on the whole answer
 * (a long answer that keeps streaming never times out).
 *
 * <p>{@link #toString()} masks the API key so a settings object can be logged.
 */
public record ProviderSettings(String id, URI baseUrl, String apiKey, Duration connectTimeout, Duration readTimeout) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(120);

    public ProviderSettings {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (id.isBlank()) {
            throw new IllegalArgumentException("provider id is blank");
        }
        if (baseUrl.getScheme() == null || baseUrl.getHost() == null) {
            throw new IllegalArgumentException("base URL of provider " + id + " is not absolute: " + baseUrl);
        }
        // A blank key is no key: the request then goes without an auth header.
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
        connectTimeout = positive(connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout, "connectTimeout");
        readTimeout = positive(readTimeout == null ? DEFAULT_READ_TIMEOUT : readTimeout, "readTimeout");
    }

    public ProviderSettings(String id, String baseUrl, String apiKey, Duration connectTimeout, Duration readTimeout) {
        this(id, URI.create(baseUrl), apiKey, connectTimeout, readTimeout);
    }

    /** The configuration key that holds this provider's API key; named in authentication errors. */
    public String apiKeyConfigKey() {
        return ProviderCatalog.configKey(id, ProviderCatalog.API_KEY);
    }

    private static Duration positive(Duration d, String name) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
        return d;
    }

    @Override
    public String toString() {
        return "ProviderSettings[id=" + id + ", baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "-" : "****")
                + ", connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout + "]";
    }
}
