package ai.lango.masking;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The secrets known now, for every place that masks: the configured ones (provider, embedding, A2A
 * and access tokens, the database password, the passphrase), set at start, and the vault's, replaced
 * whenever the vault changes (on any server of a cluster). One per application: the log filter and
 * the provider clients, which are not CDI beans, mask through it too.
 *
 * <p>What an operator reads (logs, traces) names every secret. What a user's turn and its reader see
 * is masked for their {@link Audience}: a secret they may not use is {@link SecretScanner#UNNAMED},
 * so masking a value a user guessed never confirms whose it is or what it is called.
 */
public final class SecretMask {

    /**
     * A secret of the vault, without its value: its name, whose it is, whether it is shared and, of a
     * shared one, the users besides administrators whose turns may use it.
     */
    public record Stored(String name, String owner, boolean shared, Set<String> users) {
        public Stored {
            users = Set.copyOf(users);
        }

        boolean usableBy(Audience audience) {
            return shared ? audience.admin() || audience.userId() != null && users.contains(audience.userId())
                    : audience.userId() != null && owner.equals(audience.userId());
        }
    }

    /** The scanners of one reader: for whole texts, and for streams (long values in pieces). */
    private record Views(SecretScanner whole, SecretScanner stream) {
    }

    /** Readers whose scanners are kept at once; past this they are made again as they are asked for. */
    private static final int KEPT_VIEWS = 4096;

    /** value → name, for each kind. */
    private static volatile Map<String, String> configured = Map.of();
    private static volatile Map<String, Stored> stored = Map.of();
    private static volatile SecretScanner current = SecretScanner.EMPTY;
    private static volatile Map<Audience, Views> views = new ConcurrentHashMap<>();

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

    /** Every secret of the vault (value → the secret), replacing those known before. */
    public static synchronized void stored(Map<String, Stored> secretsByValue) {
        stored = Map.copyOf(secretsByValue);
        rebuild();
    }

    private static void rebuild() {
        Map<String, String> all = new LinkedHashMap<>(configured);
        stored.forEach((value, secret) -> all.putIfAbsent(value, secret.name()));
        current = SecretScanner.of(all);
        views = new ConcurrentHashMap<>();
    }

    /** Every secret, each by its name: for what an operator reads. */
    public static SecretScanner scanner() {
        return current;
    }

    /** The secrets as {@code audience} may see them: named where they may use them, unnamed otherwise. */
    public static SecretScanner scanner(Audience audience) {
        return views(audience).whole();
    }

    private static Views views(Audience audience) {
        Map<Audience, Views> known = views;
        Views view = known.get(audience);
        if (view == null) {
            Map<String, String> replacements = replacements(audience);
            view = new Views(SecretScanner.replacing(replacements, false), SecretScanner.inPieces(replacements));
            if (known.size() >= KEPT_VIEWS) {
                known.clear();
            }
            known.put(audience, view);
        }
        return view;
    }

    /** value → what it is replaced by for {@code audience}. */
    private static Map<String, String> replacements(Audience audience) {
        Map<String, String> byValue = new LinkedHashMap<>();
        configured.forEach((value, name) -> byValue.put(value, audience.admin()
                ? SecretScanner.replacement(name) : SecretScanner.UNNAMED));
        stored.forEach((value, secret) -> byValue.putIfAbsent(value, secret.usableBy(audience)
                ? SecretScanner.replacement(secret.name()) : SecretScanner.UNNAMED));
        return byValue;
    }

    /** {@code text} with every known secret replaced by {@code [SECRET:NAME]}: for what an operator reads. */
    public static String mask(String text) {
        return current.mask(text);
    }

    /** {@code text} masked for {@code audience}. */
    public static String mask(String text, Audience audience) {
        return current.isEmpty() ? text : scanner(audience).mask(text);
    }

    /** A masker for one stream read by {@code audience}, over the secrets known as each chunk arrives. */
    public static StreamMasker stream(Audience audience) {
        return new StreamMasker(() -> current.isEmpty() ? SecretScanner.EMPTY : views(audience).stream());
    }

    /** Strings masked (map keys too), maps and lists rebuilt, anything else as it is: for what an operator reads. */
    public static Object maskDeep(Object value) {
        SecretScanner scanner = current;
        return scanner.isEmpty() ? value : deep(value, scanner);
    }

    /** The same for {@code audience}. */
    public static Object maskDeep(Object value, Audience audience) {
        return current.isEmpty() ? value : deep(value, scanner(audience));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> maskMap(Map<String, Object> value) {
        return (Map<String, Object>) maskDeep(value);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> maskMap(Map<String, Object> value, Audience audience) {
        return (Map<String, Object>) maskDeep(value, audience);
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
