package ai.lango.config;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule for the identifiers a client chooses (app names, user ids, session ids, A2A context
 * ids), applied on every edge before anything is stored: 1 to 255 characters (the columns they are
 * stored in) of letters, digits and {@code . _ : @ -}, and not "." or "..". Such an id can be put
 * in a URL path as it is, so every session created under the rule can be read and deleted again.
 */
public final class Ids {

    public static final int MAX_LENGTH = 255;
    /** The rule in words, for error messages. */
    public static final String RULE = "1 to " + MAX_LENGTH + " letters, digits, '.', '_', ':', '@' or '-' (not \".\" or \"..\")";

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:@-]{1," + MAX_LENGTH + "}");

    private Ids() {
    }

    public static boolean valid(String id) {
        return id != null && ALLOWED.matcher(id).matches() && !id.equals(".") && !id.equals("..");
    }

    /** What is wrong with {@code id}, named as {@code what} (e.g. "sessionId"), or empty when it is valid. */
    public static Optional<String> problem(String what, String id) {
        if (id == null || id.isEmpty()) {
            return Optional.of(what + " is required");
        }
        if (valid(id)) {
            return Optional.empty();
        }
        String shown = id.length() > 40 ? id.substring(0, 40) + "…" : id;
        return Optional.of(what + " \"" + printable(shown) + "\"" + (id.length() > MAX_LENGTH ? " (" + id.length()
                + " characters)" : "") + " is not a valid id: use " + RULE);
    }

    /**
     * Whether an id could have been stored at all, valid or not: sessions stored before the rule
     * existed stay readable and deletable by the id they were stored under.
     */
    public static boolean storable(String id, LangoSettings.DbKind database) {
        return id != null && !id.isEmpty() && id.length() <= MAX_LENGTH
                // PostgreSQL cannot store a NUL, and a query that binds one fails its connection's transaction.
                && (database != LangoSettings.DbKind.POSTGRESQL || id.indexOf('\u0000') < 0);
    }

    /** Control characters shown as \\uXXXX, so an error message never carries them. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)) {
                out.append(String.format("\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }
}
