package ai.lango.eval;

import java.time.Instant;

/**
 * One run of an eval set while it goes on: whose, which set, until when it may take, the session of the case it
 * replays now; cancelled from another request (the turn running then is stopped, the cases not reached are not
 * evaluated).
 */
public final class EvalRun {

    private final String id;
    private final String userId;
    private final String setId;
    private final Instant started;
    private final Instant deadline;
    private volatile boolean canceled;
    private volatile String session;

    public EvalRun(String id, String userId, String setId, Instant started, Instant deadline) {
        this.id = id;
        this.userId = userId;
        this.setId = setId;
        this.started = started;
        this.deadline = deadline;
    }

    public String id() {
        return id;
    }

    public String userId() {
        return userId;
    }

    public String setId() {
        return setId;
    }

    public Instant started() {
        return started;
    }

    public Instant deadline() {
        return deadline;
    }

    public boolean canceled() {
        return canceled;
    }

    public String session() {
        return session;
    }

    void replaying(String sessionKey) {
        session = sessionKey;
    }

    /** Stops the run: the turn running now ends, nothing further is replayed. */
    public void cancel(EvalAgent agent) {
        canceled = true;
        String current = session;
        if (current != null) {
            agent.stop(userId, current);
        }
    }
}
