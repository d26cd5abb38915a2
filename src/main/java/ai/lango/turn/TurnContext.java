package ai.lango.turn;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
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

    /**
     * How this run of the turn begins: a message starts the turn; an answer to a request for approval (or a retry of a
     * run) continues it; after a crash it is resumed, from what its session holds (its input is stored already).
     */
    public enum Begins { STARTED, CONTINUED, RESUMED }

    private final String id;
    private final Begins begins;
    private final boolean streaming;
    private final String edge;
    private final String reference;
    private final String userId;
    private final boolean admin;
    private final Credential credential;
    private final String sessionKey;
    private final Instant deadline;
    private final String traceparent;
    private final TurnAbort abort;
    private final Consumer<TurnEvent.ToolProgress> progress;
    private final TurnMeter meter;
    private final String retry;

    private TurnContext(Builder b) {
        this.id = b.id;
        this.retry = b.retry;
        this.begins = b.begins;
        this.streaming = b.streaming;
        this.edge = b.edge;
        this.reference = b.reference;
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

    public Begins begins() {
        return begins;
    }

    /** Whether the turn's client reads the answer as the model writes it. */
    public boolean streaming() {
        return streaming;
    }

    /** Where the turn came from: ws, adk, a2a, mcp, eval, or server (a turn the server started itself). */
    public String edge() {
        return edge;
    }

    /** What the edge knows the turn by besides its session (an A2A task's id), or null. */
    public String reference() {
        return reference;
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

    /**
     * The question the turn asks again in place of its answer, when it is a retry: the session's last question (when it
     * is this one) and what answered it are kept, superseded, out of what the model reads, so the model reads it once.
     */
    public Optional<String> retry() {
        return Optional.ofNullable(retry);
    }

    /** The same turn's context with its deadline, trace and sinks set where the turn starts to run. */
    public Builder toBuilder() {
        Builder b = new Builder(userId, sessionKey, admin);
        b.id = id;
        b.retry = retry;
        b.begins = begins;
        b.streaming = streaming;
        b.edge = edge;
        b.reference = reference;
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
        private Begins begins = Begins.STARTED;
        private String retry;
        private boolean streaming;
        private String edge = "server";
        private String reference;
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

        /** The id of the turn this one is: a turn that goes on after an approval or a crash keeps its turn's id. */
        public Builder id(String id) {
            this.id = Objects.requireNonNull(id);
            return this;
        }

        public Builder begins(Begins begins) {
            this.begins = Objects.requireNonNull(begins);
            return this;
        }

        public Builder streaming(boolean streaming) {
            this.streaming = streaming;
            return this;
        }

        public Builder edge(String edge, String reference) {
            this.edge = Objects.requireNonNull(edge);
            this.reference = reference;
            return this;
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

        public Builder retry(String retry) {
            this.retry = retry;
            return this;
        }

        public TurnContext build() {
            return new TurnContext(this);
        }
    }
}
