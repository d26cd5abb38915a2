package ai.lango.security;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Whose is what a turn saves (knowledge, learnings), and whose a turn may read. A user's model
 * saves for that user alone; what every user shares ({@link #SHARED}) is written by those who
 * administer — the operator (its own users), a user whose API token was issued as an
 * administrator's, and everyone while authentication is off (every caller is then the operator) —
 * or promoted to it by an administrator. A turn reads what is shared and its user's own.
 */
@ApplicationScoped
public class Ownership {

    /** The owner of what every user shares. */
    public static final String SHARED = "";

    @Inject
    LangoSettings.Access access;

    /**
     * Whether what a turn saves goes into what every user shares: when its credential administers
     * ({@code admin}), or nobody authenticates. Never decided by the user's name: a JWT whose subject
     * has an administrator's name is not an administrator.
     */
    public boolean mayWriteShared(boolean admin) {
        return !access.authenticates() || admin;
    }

    /** The owner of what {@code userId}'s turns save: {@link #SHARED} for those who administer, else the user. */
    public String ownerOf(String userId, boolean admin) {
        return userId == null || mayWriteShared(admin) ? SHARED : userId;
    }

    /** The owner of what a tool's caller saves (shared without a caller). */
    public String ownerOf(ai.lango.tool.Caller caller) {
        return caller == null ? SHARED : ownerOf(caller.userId(), caller.admin());
    }

    /** The owners whose rows {@code userId}'s turns read: the shared ones and the user's own (only shared ones without a user). */
    public static List<String> visibleTo(String userId) {
        return userId == null || userId.isEmpty() ? List.of(SHARED) : List.of(SHARED, userId);
    }
}
