package ai.lango.tool;

import ai.lango.masking.Audience;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnContext;

/**
 * Who calls a tool: the turn the call is part of — its user and session, for tools whose answer depends on
 * them; whether its credential administers (what its tools save is then what every user shares); how to stop
 * the call where it waits and where it reports progress — and whether a person approved this very call.
 */
public record Caller(TurnContext turn, boolean approved) {

    /** A caller outside any turn (a tool run on its own, a test): see {@link TurnContext#detached}. */
    public Caller(String userId, String sessionKey, boolean admin, boolean approved) {
        this(TurnContext.detached(userId, sessionKey, admin), approved);
    }

    public String userId() {
        return turn.userId();
    }

    public String sessionKey() {
        return turn.sessionKey();
    }

    public boolean admin() {
        return turn.admin();
    }

    /** The same caller, for a call a person approved. */
    public Caller asApproved() {
        return new Caller(turn, true);
    }

    /** Who reads what the call answers: this caller (a secret they may not use is unnamed to them). */
    public Audience audience() {
        return new Audience(userId(), admin());
    }

    /** The session of the turn, or null when there is none. */
    public SessionRef session() {
        return turn.session();
    }
}
