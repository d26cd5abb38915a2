package ai.lango.turn;

/** The names the server and its clients agree on, in one place. */
public final class Names {

    /** The one application this server runs, as the ADK-compatible API names it. */
    public static final String APP = "lango";
    /** The user of clients that have no users of their own: the chat page and /ws. */
    public static final String DEFAULT_USER = "user";
    /** The author of what the user says. */
    public static final String USER_AUTHOR = "user";
    /** The agent in single-agent mode. */
    public static final String SINGLE_AGENT = "lango-agent";
    public static final String SINGLE_AGENT_DESCRIPTION = "Lango Assistant";
    /** The root agent in multi-agent mode. */
    public static final String ORCHESTRATOR = "lango-orchestrator";

    /**
     * The start of the session ids eval runs replay their cases in (ADK's own prefix): hidden from session lists,
     * with tools working in a scratch folder of their own, never the user's workspace.
     */
    public static final String EVAL_SESSION_PREFIX = "___eval___session___";

    /** Whether {@code sessionKey} is a session an eval run replays a case in. */
    public static boolean isEvalSession(String sessionKey) {
        return sessionKey != null && sessionKey.startsWith(EVAL_SESSION_PREFIX);
    }

    private Names() {
    }
}
