package ai.lango.approval;

import ai.lango.tool.Safety;
import java.time.Instant;
import java.util.Optional;

/**
 * A request for a person's approval of one tool call, and what became of it.
 *
 * @param id             what the person answers (approvalId)
 * @param callId         the model's id of the call that waits
 * @param confirmationId the id of the agent framework's confirmation request that carries it, once known
 * @param args           the call's arguments as JSON, secrets masked
 * @param notes          what the person is shown besides the call, as JSON: the secrets it carries and where they
 *                       go, the files changed since the session's last approved command
 */
public record Approval(String id, String userId, String sessionKey, String callId, Optional<String> confirmationId,
                       String agent, String tool, String args, Safety safety, Decision decision, Optional<By> decidedBy,
                       boolean ran, Instant createdAt, Instant expiresAt, Optional<Instant> decidedAt, String notes) {

    /** The arguments as a map (secrets masked, long texts cut), as they were stored. */
    public java.util.Map<String, Object> argsMap() {
        try {
            return ARGS.readValue(args, new com.fasterxml.jackson.core.type.TypeReference<java.util.Map<String, Object>>() { });
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("approval " + id + " holds arguments that are not a JSON object", e);
        }
    }

    /** The notes as a map (empty when there are none). */
    public java.util.Map<String, Object> notesMap() {
        try {
            return ARGS.readValue(notes, new com.fasterxml.jackson.core.type.TypeReference<java.util.Map<String, Object>>() { });
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("approval " + id + " holds notes that are not a JSON object", e);
        }
    }

    /**
     * The note of a request to run again a call a crash cut off: nobody can tell whether it took effect. Its key in
     * {@link #notesMap()}.
     */
    public static final String RERUN_NOTE = "rerun";
    public static final String RERUN_TEXT = "the server stopped while this ran: it may or may not have taken effect; run it"
            + " again?";

    /** Whether this request asks to run again a call a crash cut off. */
    public boolean rerun() {
        return notesMap().containsKey(RERUN_NOTE);
    }

    /** {@code notes} as JSON. */
    static String json(java.util.Map<String, Object> notes) {
        try {
            return ARGS.writeValueAsString(notes);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("notes that are not JSON", e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper ARGS = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Where a request stands. */
    public enum Decision {
        PENDING, APPROVED, DENIED, EXPIRED, SUPERSEDED;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Who decided: the person, the timeout, the policy (no one asked), a new message on the session, or the server
     * (a read-only call cut off by a crash, run again without asking).
     */
    public enum By {
        USER, TIMEOUT, POLICY, SUPERSEDED, SERVER;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
