package ai.lango.session;

import java.util.Locale;

/** Message roles as stored. Written normalised: model → assistant, function → tool. */
public final class Roles {

    public static final String USER = "user";
    public static final String ASSISTANT = "assistant";
    public static final String TOOL = "tool";
    public static final String SYSTEM = "system";
    /** A compaction: the summary of an older range of the session, written by the server (never sent as it is). */
    public static final String COMPACTION = "compaction";
    /** ADK/genai names, accepted on write and mapped. */
    public static final String MODEL = "model";
    public static final String FUNCTION = "function";

    private Roles() {
    }

    /** model → assistant, function → tool; others lower-cased as they are; null stays null. */
    public static String normalize(String role) {
        if (role == null) {
            return null;
        }
        String lower = role.trim().toLowerCase(Locale.ROOT);
        return switch (lower) {
            case MODEL -> ASSISTANT;
            case FUNCTION -> TOOL;
            default -> lower;
        };
    }

    public static boolean isUser(String role) {
        return USER.equals(role);
    }
}
