package ai.lango.session;

import java.time.Instant;

/**
 * A durable turn, as its row says what is left to do: whose turn in which session, where it came from (its edge, and
 * what the edge knows it by: an A2A task), with which credential, whether it streams, its state and the server that
 * runs it (none while it waits for a person or once it ended), how often it was resumed after a crash, when it
 * started and when its current run started, and why it failed.
 */
public record TurnRecord(String id, String userId, String sessionKey, String sessionScope, State state, String server,
                         String edge, String reference, boolean admin, String credential, boolean streaming, int attempts,
                         Instant startedAt, Instant runStartedAt, Instant updatedAt, String error) {

    /** Where a turn stands. */
    public enum State {
        /** A server runs it (or ran it, until it crashed). */
        RUNNING,
        /** It stopped for a person's answer; no server runs it. */
        WAITING,
        DONE,
        FAILED;

        String column() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** A row's state; stripped, for the rows an earlier version stored padded ('done  ', see TurnRows). */
        static State of(String column) {
            return valueOf(column.strip().toUpperCase(java.util.Locale.ROOT));
        }
    }

    /**
     * What a run's first write (its user's message, or the answer that continues it) does to its turn's row, in the
     * same transaction: the turn runs, on this server, from now — its row inserted when it is new (and the session's
     * turns that waited for a person are over: a new message supersedes them), updated when it goes on.
     */
    public record Begin(TurnRecord turn) {
    }

    /**
     * How a run of turn {@code id} ended (done, failed with why, or waiting for a person), written with other turns'
     * appends in one group commit; only where this server ({@code server}) runs it or nobody does.
     */
    public record End(String id, State state, String error, String server, Instant at) {
    }
}
