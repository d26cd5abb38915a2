package ai.lango.turn;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One turn as every part of it sees it: who runs it (the user, whether their credential administers, which
 * credential it was), its session, its deadline, its trace, how to stop it where it waits, where its tools
 * report progress, and what its model calls owe (budgets, usage). Created once where the turn starts — an
 * edge's message, a person's answer, a timeout, a server's own turn — and handed down as a value: to the
 * runner, through ADK's invocation and tool contexts to every tool, model call and session write of the turn,
 * and to a continuation after an approval, on whatever thread it runs. Nothing of a turn is looked up by its
 * session or its thread. Immutable (what it points to — the abort, the sinks — is the turn's own).
 */
public final class TurnContext {

    /** The credential a turn came with: how its caller proved who they are. */
    public enum Credential {
        /** No authentication is configured: every caller is the operator. */
        NONE,
        /** The operator's lango.auth.token. */
        OPERATOR_TOKEN,
        /** A user's API token. */
        API_TOKEN,
        /** A JWT of the configured identity provider. */
        JWT,
        /** The server itself: an approval's timeout, a turn resumed after a restart, a schedule's fire. */
        SERVER
    }

    private final String id;
    private final String userId;
    private final boolean admin;
    private final Credential credential;
    private final String sessionKey;
    private final Instant deadline;
    private final String traceparent;
    private final TurnAbort abort;
    private final Consumer<TurnEvent.ToolProgress> progress;
    private final TurnMeter meter;

    private TurnContext(Builder b) {
        this.id = b.id;
        this.userId = Objects.requireNonNull(b.userId, "userId");
        this.admin = b.admin;
        this.credential = b.credential;
        this.sessionKey = b.sessionKey;
        this.deadline = b.deadline;
        this.traceparent = b.traceparent;
        this.abort = b.abort;
        this.progress = b.progress;
        this.meter = b.meter;
    }

    /** A turn of {@code userId} in {@code sessionKey}, whose credential administers or not. */
    public static Builder of(String userId, String sessionKey, boolean admin) {
        return new Builder(userId, sessionKey, admin);
    }

    /**
     * What code outside any turn acts as (a tool run on its own, the discovery of an MCP server's tools): never
     * stopped, no deadline, no trace, progress heard by nobody, nothing metered.
     */
    public static TurnContext detached(String userId, String sessionKey, boolean admin) {
        return of(userId, sessionKey, admin).credential(Credential.SERVER).build();
    }

    /** This turn's own id, unique among all turns. */
    public String id() {
        return id;
    }

    public String userId() {
        return userId;
    }

    /** Whether the credential the turn came with administers (what the turn saves is then what every user shares). */
    public boolean admin() {
        return admin;
    }

    public Credential credential() {
        return credential;
    }

    /** The session's key (null for a detached context without one). */
    public String sessionKey() {
        return sessionKey;
    }

    /** The session the turn runs in, or null when there is none. */
    public SessionRef session() {
        return sessionKey == null ? null : SessionRef.of(userId, sessionKey);
    }

    /** When the turn must have ended (Instant.MAX: never). */
    public Instant deadline() {
        return deadline;
    }

    /** The W3C trace context of the turn's span (empty when it is not traced). */
    public String traceparent() {
        return traceparent;
    }

    public TurnAbort abort() {
        return abort;
    }

    /** Where the turn's tools report how far they got. */
    public Consumer<TurnEvent.ToolProgress> progress() {
        return progress;
    }

    public TurnMeter meter() {
        return meter;
    }

    /** The same turn's context with its deadline, trace and sinks set where the turn starts to run. */
    public Builder toBuilder() {
        Builder b = new Builder(userId, sessionKey, admin);
        b.id = id;
        b.credential = credential;
        b.deadline = deadline;
        b.traceparent = traceparent;
        b.abort = abort;
        b.progress = progress;
        b.meter = meter;
        return b;
    }

    @Override
    public String toString() {
        return "turn " + id + " of " + userId + (admin ? " (administers)" : "") + " in " + sessionKey;
    }

    public static final class Builder {
        private String id = UUID.randomUUID().toString();
        private final String userId;
        private final String sessionKey;
        private final boolean admin;
        private Credential credential = Credential.NONE;
        private Instant deadline = Instant.MAX;
        private String traceparent = "";
        private TurnAbort abort = new TurnAbort();
        private Consumer<TurnEvent.ToolProgress> progress = report -> { };
        private TurnMeter meter = TurnMeter.NONE;

        private Builder(String userId, String sessionKey, boolean admin) {
            this.userId = userId;
            this.sessionKey = sessionKey;
            this.admin = admin;
        }

        public Builder credential(Credential credential) {
            this.credential = Objects.requireNonNull(credential);
            return this;
        }

        public Builder deadline(Instant deadline) {
            this.deadline = Objects.requireNonNull(deadline);
            return this;
        }

        public Builder traceparent(String traceparent) {
            this.traceparent = traceparent == null ? "" : traceparent;
            return this;
        }

        public Builder abort(TurnAbort abort) {
            this.abort = Objects.requireNonNull(abort);
            return this;
        }

        public Builder progress(Consumer<TurnEvent.ToolProgress> progress) {
            this.progress = Objects.requireNonNull(progress);
            return this;
        }

        public Builder meter(TurnMeter meter) {
            this.meter = Objects.requireNonNull(meter);
            return this;
        }

        public TurnContext build() {
            return new TurnContext(this);
        }
    }
}
