package ai.lango.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Settings for tests that run parts of the server without it, built as the server builds them: by
 * key name, through {@link SettingsParser}, every key not named at its default.
 */
public final class TestSettings {

    private TestSettings() {
    }

    /** The defaults with the data directory {@code dir}: HSQLDB, no model, exec off, no token. */
    public static LangoSettings defaults(Path dir) {
        return of(dir);
    }

    /** The settings these keys give (key, value, key, value, …; a null value leaves its key unset), with the data directory {@code dir}. */
    public static LangoSettings of(Path dir, String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        values.put(Keys.DATA_DIR.key(), dir.toString());
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                values.put(keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return new SettingsParser(key -> Optional.ofNullable(values.get(key)), values.keySet(), dir).parse();
    }

    /** The keys of this provider (at {@code baseUrl}, key "sk-test") and model, to add to others. */
    public static String[] model(String provider, String baseUrl, String model) {
        return new String[] {Keys.PROVIDER.key(), provider, Keys.PROVIDER_BASE_URL.forId(provider).key(), baseUrl,
                Keys.PROVIDER_API_KEY.forId(provider).key(), "sk-test", Keys.MODEL_NAME.key(), model};
    }

    /** Two lists of keys and values as one. */
    public static String[] and(String[] keysAndValues, String... more) {
        String[] all = java.util.Arrays.copyOf(keysAndValues, keysAndValues.length + more.length);
        System.arraycopy(more, 0, all, keysAndValues.length, more.length);
        return all;
    }
}
