package ai.lango.masking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixed set of secret values, each replaced by {@code [SECRET:NAME]} wherever it occurs. At each
 * position the longest value that matches wins, so overlapping secrets come out the same way every
 * time; a value is also found in its JSON-escaped form (a quote or backslash in it), which is how it
 * appears inside a JSON frame or row. Immutable and safe to share between threads.
 */
public final class SecretScanner {

    /** Values shorter than this are not secrets worth searching for: masking every "abc" would mangle text. */
    public static final int MIN_LENGTH = 4;

    public static final SecretScanner EMPTY = new SecretScanner(Map.of());

    private record Entry(String value, String replacement) {
    }

    /** The entries by their first character, longest first; an array for ASCII, which most text is (no boxing per character). */
    private final Map<Character, Entry[]> byFirst;
    private final Entry[][] byAsciiFirst = new Entry[128][];
    private final int longest;

    private SecretScanner(Map<Character, Entry[]> byFirst) {
        this.byFirst = byFirst;
        byFirst.forEach((first, entries) -> {
            if (first < 128) {
                byAsciiFirst[first] = entries;
            }
        });
        this.longest = byFirst.values().stream().mapToInt(e -> e[0].value().length()).max().orElse(0);
    }

    /** The replacement of a secret named {@code name}. */
    public static String replacement(String name) {
        return "[SECRET:" + name + "]";
    }

    /**
     * A scanner for {@code namesByValue} (value → the name it is replaced by); values shorter than
     * {@link #MIN_LENGTH} are left out.
     */
    public static SecretScanner of(Map<String, String> namesByValue) {
        Map<String, String> replacementByValue = new LinkedHashMap<>();
        namesByValue.forEach((value, name) -> {
            if (value != null && value.length() >= MIN_LENGTH) {
                replacementByValue.putIfAbsent(value, replacement(name));
                replacementByValue.putIfAbsent(jsonEscaped(value), replacement(name));
            }
        });
        if (replacementByValue.isEmpty()) {
            return EMPTY;
        }
        Map<Character, List<Entry>> grouped = new HashMap<>();
        replacementByValue.forEach((value, replacement) ->
                grouped.computeIfAbsent(value.charAt(0), c -> new ArrayList<>()).add(new Entry(value, replacement)));
        Map<Character, Entry[]> byFirst = new HashMap<>();
        grouped.forEach((first, entries) -> byFirst.put(first, entries.stream()
                .sorted(Comparator.comparingInt((Entry e) -> e.value().length()).reversed().thenComparing(Entry::value))
                .toArray(Entry[]::new)));
        return new SecretScanner(Map.copyOf(byFirst));
    }

    public boolean isEmpty() {
        return byFirst.isEmpty();
    }

    /** The length of the longest value: a stream never holds back more than one less than this. */
    int longest() {
        return longest;
    }

    /** {@code text} with every secret replaced. */
    public String mask(String text) {
        if (text == null || byFirst.isEmpty() || text.length() < MIN_LENGTH) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        scan(text, true, out);
        return out.toString();
    }

    /**
     * Appends {@code text} to {@code out}, secrets replaced, up to the first position where what
     * follows could still become a secret when more text comes ({@code end}: none will); returns
     * that position ({@code text.length()} when nothing is held back).
     */
    int scan(String text, boolean end, StringBuilder out) {
        int length = text.length();
        int start = 0;
        int i = 0;
        while (i < length) {
            char c = text.charAt(i);
            Entry[] candidates = c < 128 ? byAsciiFirst[c] : byFirst.get(c);
            if (candidates == null) {
                i++;
                continue;
            }
            Entry matched = null;
            for (Entry candidate : candidates) {
                String value = candidate.value();
                if (i + value.length() <= length) {
                    if (text.regionMatches(i, value, 0, value.length())) {
                        matched = candidate;
                        break;
                    }
                } else if (!end && value.regionMatches(0, text, i, length - i)) {
                    out.append(text, start, i);
                    return i; // a longer secret may still be completed by the next chunk
                }
            }
            if (matched == null) {
                i++;
            } else {
                out.append(text, start, i).append(matched.replacement());
                i += matched.value().length();
                start = i;
            }
        }
        out.append(text, start, length);
        return length;
    }

    /** {@code value} as it appears inside a JSON string. */
    static String jsonEscaped(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
