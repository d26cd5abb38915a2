package ai.lango.security;

import ai.lango.turn.TurnContext;

/**
 * Who is calling: a user, and whether they administer the server (the admin API, any user's data,
 * shared data). Always from a credential, never from a parameter; without authentication configured
 * every caller is the operator.
 *
 * @param userId     whose sessions, memory, knowledge and files these are
 * @param admin      whether this caller may administer
 * @param operator   whether this is the server's operator (lango.auth.token, or no authentication at all)
 * @param credential the credential the caller showed (the operator's: its token, or none without authentication)
 */
public record Identity(String userId, boolean admin, boolean operator, TurnContext.Credential credential) {

    /** A caller with a user's API token, or the operator with its token. */
    public Identity(String userId, boolean admin, boolean operator) {
        this(userId, admin, operator, operator ? TurnContext.Credential.OPERATOR_TOKEN : TurnContext.Credential.API_TOKEN);
    }

    /** The operator acts as this user where a user is needed and none is named (/ws, the chat page). */
    public static final String OPERATOR_USER = "user";

    /** The user the operator's A2A contexts are stored under. */
    public static final String OPERATOR_A2A_USER = "a2a";

    /** The single-operator server's caller, and the holder of lango.auth.token. */
    public static final Identity OPERATOR = new Identity(OPERATOR_USER, true, true);

    /** Who reads what this caller is answered: a secret they may not use is unnamed to them. */
    public ai.lango.masking.Audience audience() {
        return new ai.lango.masking.Audience(userId, admin);
    }

    public static Identity user(String userId, boolean admin) {
        return new Identity(userId, admin, false);
    }

    /** A user a JWT of the configured identity provider named. */
    public static Identity jwt(String userId, boolean admin) {
        return new Identity(userId, admin, false, TurnContext.Credential.JWT);
    }

    /** Whether {@code userId} names the operator's own data, so that no user's credential may name it. */
    public static boolean reserved(String userId) {
        return OPERATOR_USER.equals(userId) || OPERATOR_A2A_USER.equals(userId);
    }

    /**
     * Whether a turn this caller runs as {@code user} is an administrator's (what it saves is then
     * shared): their own turn with a credential that administers, or the operator's in its own users'
     * sessions. An administrator acting in another user's session acts as that user.
     */
    public boolean administersAs(String user) {
        return admin && (userId.equals(user) || operator && reserved(user));
    }

    /**
     * Whether this caller answers {@code user}'s requests for approval: their own, the operator its own
     * users', and anyone while nobody authenticates ({@code authenticates} false: every caller is then the
     * operator). Administrator rights do not extend to deciding another user's dangerous calls.
     */
    public boolean answersFor(String user, boolean authenticates) {
        return !authenticates || userId.equals(user) || operator && reserved(user);
    }

    /** Whether this caller may act on {@code user}'s data: their own, or any as an administrator. */
    public boolean mayActAs(String user) {
        return admin || userId.equals(user);
    }
}
