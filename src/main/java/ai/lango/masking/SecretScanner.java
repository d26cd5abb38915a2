package ai.lango.masking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixed set of secret values, each replaced by {@code [SECRET:NAME]} (or {@link #UNNAMED}) wherever
 * it occurs. At each position the longest value that matches wins, so overlapping secrets come out the
 * same way every time; a value is also found in its JSON-escaped form (a quote or backslash in it),
 * which is how it appears inside a JSON frame or row. A scanner for streams ({@link #inPieces}) knows a
 * value longer than {@link #PIECE_MAX} characters as consecutive pieces of 16 to 31 characters, each
 * masked on its own (a piece right after the one before it adds no second placeholder), so that a
 * stream never has to hold back more than 31 characters. Immutable and safe to share between threads.
 */
public final class SecretScanner {

    /** Values shorter than this are not secrets worth searching for: masking every "abc" would mangle text. */
    public static final int MIN_LENGTH = 4;

    /** The longest value (or piece of one) a scanner for streams looks for. */
    static final int PIECE_MAX = 31;
    /** The shortest piece of a long value. */
    private static final int PIECE = 16;

    /** What a secret its reader may not use is replaced by: nothing about which secret it was. */
    public static final String UNNAMED = "[SECRET]";

    public static final SecretScanner EMPTY = new SecretScanner(Map.of());

    /** A value (or piece) and its replacement; {@code continues}: a piece after a long value's first. */
    private record Entry(String value, String replacement, boolean continues) {
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
        Map<String, String> replacements = new LinkedHashMap<>();
        namesByValue.forEach((value, name) -> replacements.putIfAbsent(value, replacement(name)));
        return replacing(replacements, false);
    }

    /** A scanner for streams: {@code namesByValue} with each long value known {@linkplain #inPieces in pieces}. */
    static SecretScanner inPieces(Map<String, String> replacementByValue) {
        return replacing(replacementByValue, true);
    }

    /**
     * A scanner replacing each value of {@code replacementByValue} (value → its replacement) of
     * {@link #MIN_LENGTH} or more characters; {@code pieces}: values longer than {@link #PIECE_MAX}
     * as consecutive pieces.
     */
    static SecretScanner replacing(Map<String, String> replacements, boolean pieces) {
        Map<String, Entry> byValue = new LinkedHashMap<>();
        replacements.forEach((value, replacement) -> {
            if (value != null && value.length() >= MIN_LENGTH) {
                for (String form : List.of(value, jsonEscaped(value))) {
                    List<String> parts = pieces ? pieces(form) : List.of(form);
                    for (int k = 0; k < parts.size(); k++) {
                        byValue.putIfAbsent(parts.get(k), new Entry(parts.get(k), replacement, k > 0));
                    }
                }
            }
        });
        if (byValue.isEmpty()) {
            return EMPTY;
        }
        Map<Character, List<Entry>> grouped = new HashMap<>();
        byValue.forEach((value, entry) -> grouped.computeIfAbsent(value.charAt(0), c -> new ArrayList<>()).add(entry));
        Map<Character, Entry[]> byFirst = new HashMap<>();
        grouped.forEach((first, entries) -> byFirst.put(first, entries.stream()
                .sorted(Comparator.comparingInt((Entry e) -> e.value().length()).reversed().thenComparing(Entry::value))
                .toArray(Entry[]::new)));
        return new SecretScanner(Map.copyOf(byFirst));
    }

    /**
     * {@code value} cut into consecutive pieces of {@value #PIECE} characters, the last taking the rest
     * (16 to 31 characters); {@code value} itself when it has at most {@link #PIECE_MAX}. A stream holds back
     * no more than a piece, and any stretch of 31 characters of a long value holds a whole piece: guessing
     * one means guessing 16 characters at once.
     */
    static List<String> pieces(String value) {
        if (value.length() <= PIECE_MAX) {
            return List.of(value);
        }
        List<String> pieces = new ArrayList<>();
        int count = value.length() / PIECE;
        for (int k = 0; k < count; k++) {
            pieces.add(value.substring(k * PIECE, k == count - 1 ? value.length() : (k + 1) * PIECE));
        }
        return pieces;
    }

    public boolean isEmpty() {
        return byFirst.isEmpty();
    }

    /** The length of the longest value (or piece). */
    int longest() {
        return longest;
    }

    /** {@code text} with every secret replaced. */
    public String mask(String text) {
        if (text == null || byFirst.isEmpty() || text.length() < MIN_LENGTH) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        scanTo(text, text.length(), out);
        return out.toString();
    }

    /**
     * Appends {@code text} to {@code out}, secrets replaced, from its start to {@code cut} — or to the end of
     * a secret that starts before {@code cut} and ends after it; returns where it stopped. Every secret that
     * starts before {@code cut} must lie whole in {@code text} (the caller holds back at least the longest
     * value less one character): what is sent then depends on lengths alone, never on whether the text
     * after {@code cut} begins a secret.
     */
    int scanTo(String text, int cut, StringBuilder out) {
        return scanTo(text, cut, out, new String[1]);
    }

    /**
     * The same, where {@code last[0]} is the replacement the text before ended with (null: it ended with
     * text), updated as this text is masked: a piece that continues a long value right after that value's
     * replacement adds no second one.
     */
    int scanTo(String text, int cut, StringBuilder out, String[] last) {
        int length = text.length();
        int start = 0;
        int i = 0;
        while (i < cut) {
            char c = text.charAt(i);
            Entry[] candidates = c < 128 ? byAsciiFirst[c] : byFirst.get(c);
            Entry matched = null;
            if (candidates != null) {
                for (Entry candidate : candidates) {
                    String value = candidate.value();
                    if (i + value.length() <= length && text.regionMatches(i, value, 0, value.length())) {
                        matched = candidate;
                        break;
                    }
                }
            }
            if (matched == null) {
                i++;
                continue;
            }
            if (start < i) {
                out.append(text, start, i);
                last[0] = null;
            }
            if (!(matched.continues() && matched.replacement().equals(last[0]))) {
                out.append(matched.replacement());
            }
            last[0] = matched.replacement();
            i += matched.value().length();
            start = i;
        }
        if (start < cut) {
            out.append(text, start, cut);
            last[0] = null;
            return cut;
        }
        return start;
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
