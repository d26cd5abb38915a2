package ai.lango.session;

import java.util.Optional;

/**
 * A session's title: kept in its state under {@link #KEY}, taken from its first user message and
 * renamable by its user. Shown by the chat page's session list (and in ADK's session JSON).
 */
public final class SessionTitles {

    /** The state key; "lango:" keeps it apart from the agent's own state keys. */
    public static final String KEY = "lango:title";
    public static final int MAX_CHARS = 60;

    private SessionTitles() {
    }

    /**
     * A title from a text: its first non-blank line, invisible characters removed, spaces collapsed,
     * cut at a word to {@link #MAX_CHARS} characters with "…"; empty when nothing readable is left.
     */
    public static Optional<String> of(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (String line : text.split("\\R")) {
            String clean = line.replaceAll("[\\p{Cc}\\p{Cf}]", "").replaceAll("\\s+", " ").strip();
            if (!clean.isEmpty()) {
                return Optional.of(cut(clean));
            }
        }
        return Optional.empty();
    }

    /** The mark a schedule's message is stored with ("[Scheduled <due time>] "), which a title leaves out. */
    private static final java.util.regex.Pattern SCHEDULED = java.util.regex.Pattern.compile("^\\[Scheduled [^\\]]*\\] ");

    /** A title from a session's first user message: {@link #of}, without the mark of a scheduled one. */
    public static Optional<String> ofMessage(String message) {
        return of(message == null ? null : SCHEDULED.matcher(message).replaceFirst(""));
    }

    private static String cut(String title) {
        if (title.codePointCount(0, title.length()) <= MAX_CHARS) {
            return title;
        }
        String head = title.substring(0, title.offsetByCodePoints(0, MAX_CHARS - 1));
        int space = head.lastIndexOf(' ');
        return (space > MAX_CHARS / 2 ? head.substring(0, space) : head).strip() + "…";
    }
}
