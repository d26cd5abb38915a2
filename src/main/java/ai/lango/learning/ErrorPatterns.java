package ai.lango.learning;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An error's text as a pattern that the same failure produces again: what varies from one
 * occurrence to the next (ids, times, paths, ports) is taken out; and the category of the error.
 */
public final class ErrorPatterns {

    /** The categories a learning can have; {@code user_correction} comes only from save_learning. */
    public static final String TIMEOUT = "timeout";
    public static final String PERMISSION = "permission";
    public static final String PROVIDER_ERROR = "provider_error";
    public static final String TOOL_ERROR = "tool_error";
    public static final String USER_CORRECTION = "user_correction";
    public static final String GENERAL = "general";
    public static final java.util.List<String> CATEGORIES =
            java.util.List.of(TOOL_ERROR, PROVIDER_ERROR, USER_CORRECTION, TIMEOUT, PERMISSION, GENERAL);

    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern PATH = Pattern.compile("/[^\\s:'\"]+");
    private static final Pattern PORT = Pattern.compile(":\\d{4,5}\\b");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private static final Pattern TIMEOUT_WORDS = Pattern.compile("timeout|timed out|deadline");
    private static final Pattern PERMISSION_WORDS = Pattern.compile("permission denied|access denied|forbidden|not permitted");
    // Whole words: "api" must not match "capital", nor "model" "remodel".
    private static final Pattern PROVIDER_WORDS = Pattern.compile("\\b(api|model|provider|rate limit(ed)?)\\b");

    private ErrorPatterns() {
    }

    /** The error without UUIDs and timestamps, paths as {@code <path>}, ports as {@code :<port>}, spaces collapsed. */
    public static String pattern(String error) {
        if (error == null) {
            return "";
        }
        String text = UUID.matcher(error).replaceAll("");
        text = TIMESTAMP.matcher(text).replaceAll("");
        text = PORT.matcher(text).replaceAll(":<port>");
        text = PATH.matcher(text).replaceAll("<path>");
        return SPACES.matcher(text).replaceAll(" ").trim();
    }

    /** The error's category; {@code tool_error} rather than {@code general} when a tool failed. */
    public static String category(String error, String toolName) {
        String text = error == null ? "" : error.toLowerCase(Locale.ROOT);
        if (TIMEOUT_WORDS.matcher(text).find()) {
            return TIMEOUT;
        }
        if (PERMISSION_WORDS.matcher(text).find()) {
            return PERMISSION;
        }
        if (PROVIDER_WORDS.matcher(text).find()) {
            return PROVIDER_ERROR;
        }
        return toolName == null || toolName.isBlank() ? GENERAL : TOOL_ERROR;
    }
}
