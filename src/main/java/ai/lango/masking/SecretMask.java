package ai.lango.masking;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The secrets known now, for every place that masks: the configured ones (provider, embedding, A2A
 * and access tokens, the database password, the passphrase), set at start, and the vault's, replaced
 * whenever the vault changes (on any server of a cluster). One per application: the log filter and
 * the provider clients, which are not CDI beans, mask through it too.
 */
public final class SecretMask {

    /** value → name, for each kind. */
    private static volatile Map<String, String> configured = Map.of();
    private static volatile Map<String, String> stored = Map.of();
    private static volatile SecretScanner current = SecretScanner.EMPTY;

    private SecretMask() {
    }

    /** The configured secrets, by their configuration key (name → value), replacing those known before. */
    public static synchronized void configured(Map<String, String> valuesByName) {
        Map<String, String> byValue = new LinkedHashMap<>();
        valuesByName.forEach((name, value) -> {
            if (value != null) {
                byValue.putIfAbsent(value, name);
            }
        });
        configured = Map.copyOf(byValue);
        rebuild();
    }

    /** One more configured secret (a passphrase given while the server runs). */
    public static synchronized void configured(String name, String value) {
        Map<String, String> byValue = new LinkedHashMap<>(configured);
        byValue.put(value, name);
        configured = Map.copyOf(byValue);
        rebuild();
    }

    /** Every secret of the vault (value → name), replacing those known before. */
    public static synchronized void stored(Map<String, String> namesByValue) {
        stored = Map.copyOf(namesByValue);
        rebuild();
    }

    private static void rebuild() {
        Map<String, String> all = new LinkedHashMap<>(configured);
        stored.forEach(all::putIfAbsent);
        current = SecretScanner.of(all);
    }

    public static SecretScanner scanner() {
        return current;
    }

    /** {@code text} with every known secret replaced by {@code [SECRET:NAME]}. */
    public static String mask(String text) {
        return current.mask(text);
    }

    /** A masker for one stream, over the secrets known as each chunk arrives. */
    public static StreamMasker stream() {
        return new StreamMasker(SecretMask::scanner);
    }

    /** Strings masked (map keys too), maps and lists rebuilt, anything else as it is. */
    public static Object maskDeep(Object value) {
        SecretScanner scanner = current;
        return scanner.isEmpty() ? value : deep(value, scanner);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> maskMap(Map<String, Object> value) {
        return (Map<String, Object>) maskDeep(value);
    }

    private static Object deep(Object value, SecretScanner scanner) {
        if (value instanceof String text) {
            return scanner.mask(text);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(scanner.mask(String.valueOf(k)), deep(v, scanner)));
            return copy;
        }
        if (value instanceof Collection<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(deep(item, scanner)));
            return copy;
        }
        return value;
    }
}
