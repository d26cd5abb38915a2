package ai.lango.security;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Who may write what every user shares — knowledge, learnings and their confidence — until they
 * are kept per user: the operator (its own users), a user whose API token was issued as an
 * administrator's, and everyone while authentication is off (every caller is then the operator).
 * Anything else a user's model saves would reach other users' prompts, so it is refused.
 */
@ApplicationScoped
public class SharedWriters {

    @Inject
    LangoSettings.Access access;

    @Inject
    UserTokens users;

    /** Whether what {@code userId}'s turns save may go into the shared stores. */
    public boolean mayWrite(String userId) {
        if (!access.authenticates() || userId == null || Identity.reserved(userId)) {
            return true;
        }
        return users.isAdmin(userId);
    }

    /** The tool error for a user who may not write shared stores. */
    public static String refusal(String what, String userId) {
        return what + " is shared by every user of this server, so only an administrator saves it (you are \""
                + userId + "\")";
    }
}
