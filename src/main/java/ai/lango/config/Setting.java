package ai.lango.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configuration key, declared once (in {@link Keys}): its name, what it accepts, its default
 * and what it does. The parser reads values through it, and the admin API, {@code
 * config/lango.properties} and the configuration reference are rendered from it.
 *
 * @param <T> the parsed value
 */
public final class Setting<T> {

    /** How a raw string becomes a value; throws {@link IllegalArgumentException} when it is not accepted. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(String raw);
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|B|KiB|MiB)", Pattern.CASE_INSENSITIVE);

    private final String key;
    private final String type;
    private final String accepted;
    private final T fallback;
    private final String shownDefault;
    private final String description;
    private final boolean secret;
    private final String example;
    private final Parser<T> parser;

    private Setting(String key, String type, String accepted, T fallback, String shownDefault, String description,
                    boolean secret, String example, Parser<T> parser) {
        this.key = key;
        this.type = type;
        this.accepted = accepted;
        this.fallback = fallback;
        this.shownDefault = shownDefault;
        this.description = description;
        this.secret = secret;
        this.example = example;
        this.parser = parser;
    }

    public String key() {
        return key;
    }

    /** The environment variable MicroProfile Config maps to this key: lango.db.kind &lt;- LANGO_DB_KIND. */
    public String environmentVariable() {
        return environmentVariable(key);
    }

    /** The environment variable that sets {@code key} (MicroProfile Config's mapping: capitals, "_" for the rest). */
    public static String environmentVariable(String key) {
        return key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9<>]", "_");
    }

    /** A short type: boolean, integer, duration, size, text, path, list. */
    public String type() {
        return type;
    }

    /** What a valid value is, as an error message and the docs say it. */
    public String accepted() {
        return accepted;
    }

    /** The value when the key is unset; empty when unset means "none". */
    public Optional<T> fallback() {
        return Optional.ofNullable(fallback);
    }

    /** The default of a key that has one: what code that needs the default reads, so it is written once. */
    public T defaultValue() {
        return fallback().orElseThrow(() -> new IllegalStateException(key + " has no default"));
    }

    /** The default as the docs show it ("" when the key is unset by default). */
    public String shownDefault() {
        return shownDefault;
    }

    public String description() {
        return description;
    }

    /** A secret's value is never shown: not by the admin API, not in a log. */
    public boolean secret() {
        return secret;
    }

    /** An example value for a key that is unset by default ("" when none). */
    public String example() {
        return example;
    }

    /** The value of {@code raw}, or an error naming the key, the value and what is accepted. */
    public T parse(String raw) {
        try {
            return parser.parse(raw.trim());
        } catch (IllegalArgumentException e) {
            throw SettingsParser.invalid(key, secret ? Redaction.MASK : raw, accepted);
        }
    }

    /** The same setting, shown in the docs with this default (for defaults derived from other keys). */
    public Setting<T> shown(String defaultText) {
        return new Setting<>(key, type, accepted, fallback, defaultText, description, secret, example, parser);
    }

    /** The same setting with an example for when it is unset. */
    public Setting<T> example(String value) {
        return new Setting<>(key, type, accepted, fallback, shownDefault, description, secret, value, parser);
    }

    /** The same setting with values refused unless {@code rule} holds. */
    Setting<T> accepting(Predicate<T> rule) {
        return new Setting<>(key, type, accepted, fallback, shownDefault, description, secret, example, raw -> {
            T value = parser.parse(raw);
            if (!rule.test(value)) {
                throw new IllegalArgumentException(raw);
            }
            return value;
        });
    }

    /** This setting for one of a family of keys: lango.providers.&lt;id&gt;.api-key for id "openai". */
    public Setting<T> forId(String id) {
        return new Setting<>(key.replace("<id>", id), type, accepted, fallback, shownDefault, description, secret, example,
                parser);
    }

    // Factories, one per kind of value. Each takes the key, the default (null: unset) and the description.

    static Setting<Boolean> bool(String key, Boolean fallback, String description) {
        return new Setting<>(key, "boolean", "true or false", fallback, fallback == null ? "" : fallback.toString(),
                description, false, "", raw -> switch (raw.toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new IllegalArgumentException(raw);
                });
    }

    static Setting<Integer> integer(String key, int fallback, int min, int max, String accepted, String description) {
        return new Setting<>(key, "integer", accepted, fallback, Integer.toString(fallback), description, false, "", raw -> {
            int value = Integer.parseInt(raw);
            if (value < min || value > max) {
                throw new IllegalArgumentException(raw);
            }
            return value;
        });
    }

    /** An integer where 0 or less stands for {@code fallback}. */
    static Setting<Integer> positiveOrDefault(String key, int fallback, String description) {
        return new Setting<>(key, "integer", "an integer (0 or less means " + fallback + ")", fallback,
                Integer.toString(fallback), description, false, "", raw -> {
                    int value = Integer.parseInt(raw);
                    return value > 0 ? value : fallback;
                });
    }

    /** An ISO-8601 duration from {@code min} to {@code max} (null: no upper bound). */
    static Setting<Duration> duration(String key, Duration fallback, Duration min, Duration max, String description) {
        String accepted = max != null ? "an ISO-8601 duration from " + min + " to " + max
                : min.isZero() ? "an ISO-8601 duration of zero or more, such as PT30M or P7D"
                : "an ISO-8601 duration of at least " + min + ", such as PT30S";
        return new Setting<>(key, "duration", accepted, fallback, fallback == null ? "" : fallback.toString(), description,
                false, "", raw -> {
                    try {
                        Duration value = Duration.parse(raw.toUpperCase(Locale.ROOT));
                        if (value.compareTo(min) < 0 || (max != null && value.compareTo(max) > 0)) {
                            throw new IllegalArgumentException(raw);
                        }
                        return value;
                    } catch (DateTimeParseException e) {
                        throw new IllegalArgumentException(raw, e);
                    }
                });
    }

    /** Bytes, or with KiB or MiB. */
    static Setting<Long> size(String key, long fallback, long min, long max, String shown, String description) {
        String accepted = "a size from " + bytes(min) + " to " + bytes(max) + ", in bytes or with KiB or MiB, such as "
                + fallback + " or " + bytes(fallback);
        return new Setting<>(key, "size", accepted, fallback, shown, description, false, "", raw -> {
            Matcher size = SIZE.matcher(raw);
            if (!size.matches()) {
                throw new IllegalArgumentException(raw);
            }
            long value = Math.multiplyExact(Long.parseLong(size.group(1)), switch (size.group(2).toLowerCase(Locale.ROOT)) {
                case "kib" -> 1024L;
                case "mib" -> 1024L * 1024;
                default -> 1L;
            });
            if (value < min || value > max) {
                throw new IllegalArgumentException(raw);
            }
            return value;
        });
    }

    private static String bytes(long n) {
        return n % (1024 * 1024) == 0 ? n / (1024 * 1024) + "MiB" : n % 1024 == 0 ? n / 1024 + "KiB" : n + "B";
    }

    /** An exact decimal of zero or more with at most 6 places (an amount of USDC), such as 0.10. */
    static Setting<java.math.BigDecimal> decimal(String key, String fallback, String description) {
        java.math.BigDecimal value = new java.math.BigDecimal(fallback);
        return new Setting<>(key, "decimal", "a decimal of zero or more with at most 6 places, such as " + fallback, value,
                fallback, description, false, "", raw -> {
                    if (!raw.matches("(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?")) {
                        throw new IllegalArgumentException(raw);
                    }
                    return new java.math.BigDecimal(raw);
                });
    }

    /** A fraction above 0 and at most 1, such as 0.7. */
    static Setting<Double> fraction(String key, double fallback, String description) {
        return new Setting<>(key, "decimal", "a decimal above 0 and at most 1, such as " + fallback, fallback,
                Double.toString(fallback), description, false, "", raw -> {
                    double value = Double.parseDouble(raw);
                    if (!(value > 0 && value <= 1)) {
                        throw new IllegalArgumentException(raw);
                    }
                    return value;
                });
    }

    static Setting<String> text(String key, String fallback, String description) {
        return new Setting<>(key, "text", "any text", fallback, fallback == null ? "" : fallback, description, false, "",
                raw -> raw);
    }

    /** Text that is never shown. */
    static Setting<String> secret(String key, String description) {
        return new Setting<>(key, "secret", "any text", null, "", description, true, "", raw -> raw);
    }

    /** One of {@code choices}, case-insensitive, lower-cased. */
    static Setting<String> choice(String key, String fallback, List<String> choices, String description) {
        return new Setting<>(key, "one of " + String.join(", ", choices), String.join(", ", choices), fallback,
                fallback == null ? "" : fallback, description, false, "", raw -> {
                    String value = raw.toLowerCase(Locale.ROOT);
                    if (!choices.contains(value)) {
                        throw new IllegalArgumentException(raw);
                    }
                    return value;
                });
    }

    /** A directory; "~" stands for the home directory, which the caller resolves. */
    static Setting<Path> path(String key, String shown, String description) {
        return new Setting<>(key, "path", "a directory path", null, shown, description, false, "", raw -> {
            try {
                return Path.of(raw);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(raw, e);
            }
        });
    }

    /** A comma-separated list; each item trimmed, empty items dropped, each parsed by {@code item}. */
    static <E> Setting<List<E>> list(String key, String accepted, Function<String, E> item, String description) {
        return new Setting<>(key, "list", accepted, List.of(), "", description, false, "", raw -> {
            List<E> items = new ArrayList<>();
            for (String part : raw.split(",")) {
                if (!part.isBlank()) {
                    E value = item.apply(part.trim());
                    if (!items.contains(value)) {
                        items.add(value);
                    }
                }
            }
            return List.copyOf(items);
        });
    }

    @Override
    public String toString() {
        return key;
    }
}
