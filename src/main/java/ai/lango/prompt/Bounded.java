package ai.lango.prompt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Text and JSON-like values (maps, lists, strings, numbers) cut to a number of characters, with a
 * marker where something was left out: what goes into a model request or a background model call
 * is bounded, whatever a tool or a model produced. A value stays valid JSON: its longest strings are
 * shortened (and, if that is not enough, its longest lists), never its structure.
 */
public final class Bounded {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Strings are not cut shorter than this while lists can still be shortened. */
    private static final int MIN_STRING = 200;
    /** The key under which a cut map says so. */
    public static final String NOTE = "_cut";

    private Bounded() {
    }

    /** {@code text} if it has at most {@code max} characters, else its start and a marker saying how much was left out. */
    public static String text(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int keep = safeEnd(text, Math.max(0, max - marker(text.length()).length()));
        return text.substring(0, keep) + marker(text.length() - keep);
    }

    /**
     * {@code value} if its JSON has at most {@code max} characters; otherwise a copy whose longest
     * strings (then longest lists) are cut so that it fits, and, for a map, an entry {@value #NOTE}
     * with {@code note} saying why and how to get the rest.
     */
    public static Object value(Object value, int max, String note) {
        if (length(value) <= max) {
            return value;
        }
        int budget = Math.max(0, max - note.length() - NOTE.length() - 8);
        int items = Integer.MAX_VALUE;
        if (length(cap(value, MIN_STRING, items)) > budget) {
            items = search(0, longestList(value), n -> length(cap(value, MIN_STRING, n)) <= budget);
        }
        int itemCap = items;
        int chars = search(0, longestString(value), n -> length(cap(value, n, itemCap)) <= budget);
        Object cut = cap(value, chars, itemCap);
        if (cut instanceof Map<?, ?> map) {
            Map<Object, Object> noted = new LinkedHashMap<>(map);
            noted.put(NOTE, note);
            return noted;
        }
        return cut;
    }

    /** The characters of {@code value} as JSON. */
    public static int length(Object value) {
        try {
            return value instanceof String text ? text.length() + 2 : JSON.writeValueAsString(value).length();
        } catch (JsonProcessingException e) {
            return String.valueOf(value).length();
        }
    }

    private static String marker(int omitted) {
        return "…[" + omitted + " more characters cut]";
    }

    /** Never between the two halves of a surrogate pair. */
    private static int safeEnd(String text, int end) {
        return end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end;
    }

    /** The largest n in [low, high] for which {@code fits} holds (low when none does). */
    private static int search(int low, int high, java.util.function.IntPredicate fits) {
        while (low < high) {
            int mid = (int) (((long) low + high + 1) / 2);
            if (fits.test(mid)) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    private static Object cap(Object value, int chars, int items) {
        if (value instanceof String text) {
            // Only where cutting saves more than the marker costs: so a lower cap never makes a value longer.
            if (text.length() <= chars + marker(text.length()).length()) {
                return text;
            }
            int keep = safeEnd(text, chars);
            return text.substring(0, keep) + marker(text.length() - keep);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, cap(v, chars, items)));
            return copy;
        }
        if (value instanceof Collection<?> list) {
            List<Object> copy = new ArrayList<>();
            for (Object item : list) {
                if (copy.size() == items) {
                    copy.add("…[" + (list.size() - items) + " more items cut]");
                    break;
                }
                copy.add(cap(item, chars, items));
            }
            return copy;
        }
        return value;
    }

    private static int longestString(Object value) {
        if (value instanceof String text) {
            return text.length();
        }
        if (value instanceof Map<?, ?> map) {
            return map.values().stream().mapToInt(Bounded::longestString).max().orElse(0);
        }
        if (value instanceof Collection<?> list) {
            return list.stream().mapToInt(Bounded::longestString).max().orElse(0);
        }
        return 0;
    }

    private static int longestList(Object value) {
        if (value instanceof Map<?, ?> map) {
            return map.values().stream().mapToInt(Bounded::longestList).max().orElse(0);
        }
        if (value instanceof Collection<?> list) {
            return Math.max(list.size(), list.stream().mapToInt(Bounded::longestList).max().orElse(0));
        }
        return 0;
    }
}
