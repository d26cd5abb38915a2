package ai.lango.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/**
 * Where a list answer starts and how long it is, from {@code ?offset=&limit=} (or a sessions list's
 * {@code ?page=&size=}): validated before any arithmetic, so a bad or huge value is a 400
 * {@code invalid_page}, never an overflow. A list asks its store for one row more than the limit to
 * say whether there are more.
 */
public record Paging(int offset, int limit) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;
    /** Beyond this an offset is a mistake, not a page anyone reads. */
    public static final int MAX_OFFSET = 10_000_000;

    public static Paging of(String offset, String limit) {
        return new Paging(number("offset", offset, 0, 0, MAX_OFFSET), number("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT));
    }

    /** {@code ?page=&size=}: the page'th page of {@code size} rows. */
    public static Paging ofPage(String page, String size) {
        int rows = number("size", size, DEFAULT_LIMIT, 1, MAX_LIMIT);
        return new Paging(number("page", page, 0, 0, MAX_OFFSET / rows) * rows, rows);
    }

    private static int number(String name, String raw, int fallback, int min, int max) {
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new WebApplicationException(ApiError.of(Response.Status.BAD_REQUEST, "invalid_page",
                name + " must be an integer from " + min + " to " + max));
    }
}
