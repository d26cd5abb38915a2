package ai.lango.approval;

import ai.lango.config.LangoSettings;
import ai.lango.masking.SecretMask;
import ai.lango.database.KeysWithRows;
import ai.lango.tool.Safety;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The stored requests for approval and their decisions, on every server. A request is made before
 * a call that {@link ApprovalPolicy} says asks; it is answered once (by its user, the timeout, or a
 * new message on its session), and an approved call runs once, with exactly the arguments it was
 * asked with. Every decision is counted at /metrics ({@code lango_approvals_total{tool, outcome}}).
 */
@ApplicationScoped
public class Approvals {

    /** The longest text of one argument kept in a request (shown to the person, stored for the audit); the hash covers all of it. */
    static final int MAX_ARG_CHARS = 2_000;

    /** Expired requests one sweep takes at most. */
    static final int SWEEP = 100;
    /**
     * How late a sweep still expires a request and resumes its turn. One that ran out longer ago ran
     * out while no server was up: it stays until its session's next message (or a late answer)
     * expires it, and the model is told then — no turn starts on its own for a conversation long over.
     */
    static final java.time.Duration RESUMABLE = java.time.Duration.ofMinutes(2);

    private static final ObjectMapper CANONICAL = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    @Inject
    ApprovalRows rows;

    @Inject
    LangoSettings settings;

    @Inject
    MeterRegistry registry;

    @Inject
    Event<ApprovalResolved> resolved;

    /** The sessions with requests waiting: a new message on any other supersedes nothing and asks no database. */
    private KeysWithRows pendingSessions;

    @PostConstruct
    void rememberPendingSessions() {
        pendingSessions = new KeysWithRows(settings.database().kind().exclusive(), rows::sessionsWithPending);
    }

    /** The decision in force after an answer, and whether this answer made it (false: it was decided before). */
    public record Outcome(Approval.Decision decision, boolean decidedNow) {
    }

    /** One tool call as a request names it: whose, where, which, and its arguments (masked, and hashed unmasked). */
    public record Call(String userId, String sessionKey, String sessionScope, String callId, String agent, String tool,
                       String maskedArgs, String argsHash, Safety safety, Map<String, Object> notes) {

        /** The same call with what the person is shown besides it (masked, like its arguments). */
        public Call noting(Map<String, Object> given) {
            return new Call(userId, sessionKey, sessionScope, callId, agent, tool, maskedArgs, argsHash, safety,
                    SecretMask.maskMap(given));
        }
    }

    /** The call as a request names it: its arguments masked (every known secret) and hashed as they are. */
    public Call call(String userId, String sessionKey, String sessionScope, String callId, String agent, String tool,
                     Map<String, Object> args, Safety safety) {
        String json = canonical(args);
        return new Call(userId, sessionKey, sessionScope, callId == null ? "" : callId, agent, tool,
                SecretMask.mask(canonical(bounded(args))), sha256(json), safety, Map.of());
    }

    /** Stores a request; it waits until lango.security.approval.timeout from now. */
    public Approval request(Call call) {
        Instant now = Instant.now();
        ApprovalEntity entity = new ApprovalEntity(UUID.randomUUID().toString(), call, Approval.Decision.PENDING, null,
                false, now, now.plus(settings.approval().timeout()));
        pendingSessions.adding(call.sessionScope());
        rows.insert(entity);
        return entity.view();
    }

    /** Records a call of a moderate or dangerous tool that the policy let run without asking. */
    public void ranByPolicy(Call call) {
        Instant now = Instant.now();
        rows.insert(new ApprovalEntity(UUID.randomUUID().toString(), call, Approval.Decision.APPROVED, Approval.By.POLICY,
                true, now, now));
        count(call.tool(), "policy");
    }

    /**
     * Records that a read-only call a crash cut off runs again without asking (approved by the server, not run yet):
     * what the approval gate lets through when the resumed turn makes the call again.
     */
    public Approval rerunUnasked(Call call) {
        Instant now = Instant.now();
        ApprovalEntity entity = new ApprovalEntity(UUID.randomUUID().toString(), call, Approval.Decision.APPROVED,
                Approval.By.SERVER, false, now, now);
        rows.insert(entity);
        count(call.tool(), "rerun");
        return entity.view();
    }

    public Optional<Approval> get(String id) {
        return rows.get(id);
    }

    /** Notes the id of the agent framework's confirmation request that carries the request. */
    public void attach(String id, String confirmationId) {
        rows.attach(id, confirmationId);
    }

    public Optional<Approval> forConfirmation(String sessionScope, String confirmationId) {
        return rows.forConfirmation(sessionScope, confirmationId);
    }

    /**
     * Answers a pending request of {@code userId} (any user's when null: the timeout, a new
     * message): the decision in force afterwards — this answer's, or the one the request already had
     * (an answer after the timeout finds it expired). Empty when that user has no such request.
     */
    public Optional<Outcome> decide(String id, String userId, boolean approved, Approval.By by) {
        Approval.Decision decision = by == Approval.By.TIMEOUT ? Approval.Decision.EXPIRED
                : by == Approval.By.SUPERSEDED ? Approval.Decision.SUPERSEDED
                : approved ? Approval.Decision.APPROVED : Approval.Decision.DENIED;
        Optional<Approval> request = rows.get(id).filter(a -> userId == null || a.userId().equals(userId));
        if (request.isEmpty()) {
            return Optional.empty();
        }
        if (rows.decide(id, userId, decision, by, Instant.now())) {
            decided(request.get(), decision, by);
            return Optional.of(new Outcome(decision, true));
        }
        Approval now = rows.get(id).orElseThrow();
        if (now.decision() == Approval.Decision.PENDING) { // answered after its time: it expires now
            return decide(id, null, false, Approval.By.TIMEOUT).map(expired -> new Outcome(expired.decision(), false));
        }
        return Optional.of(new Outcome(now.decision(), false));
    }

    private void decided(Approval approval, Approval.Decision decision, Approval.By by) {
        count(approval.tool(), decision.wire());
        resolved.fire(new ApprovalResolved(approval, decision, by));
    }

    /** When a person last approved a call of {@code tool} in the session that then ran; empty when none did. */
    public Optional<Instant> lastApprovedRun(String sessionScope, String tool) {
        return rows.lastApprovedRun(sessionScope, tool);
    }

    /** The newest request for the model's call {@code callId} in the session, if one was made. */
    public Optional<Approval> forCall(String sessionScope, String callId) {
        return rows.forCall(sessionScope, callId == null ? "" : callId);
    }

    /** Marks the approved request as run, if it still may: approved, not run yet, this tool, these arguments. */
    public boolean run(Approval approval, Call call) {
        return rows.markRan(approval.id(), call.tool(), call.argsHash());
    }

    /**
     * A new message on the session: its pending requests are superseded (denied), or expired if
     * their time had run out; those it ended, with the decision.
     */
    public Map<Approval, Approval.Decision> supersede(String sessionScope) {
        Map<Approval, Approval.Decision> ended = new java.util.LinkedHashMap<>();
        Instant now = Instant.now();
        for (Approval pending : pendingIn(sessionScope)) {
            Approval.By by = pending.expiresAt().isAfter(now) ? Approval.By.SUPERSEDED : Approval.By.TIMEOUT;
            decide(pending.id(), null, false, by).filter(Outcome::decidedNow).ifPresent(d -> ended.put(pending, d.decision()));
        }
        return ended;
    }

    /** The session's requests still waiting, oldest first. */
    public List<Approval> pendingIn(String sessionScope) {
        return pendingSessions.mayHold(List.of(sessionScope)) ? rows.pendingInSession(sessionScope) : List.of();
    }

    /** The user's requests still waiting (for a client that reconnects). */
    public List<Approval> pending(String userId) {
        return rows.pendingOf(userId, Instant.now());
    }

    /** Expires what waited past its time; those this call expired (another server may take some first). */
    public List<Approval> expireDue() {
        List<Approval> expired = new ArrayList<>();
        Instant now = Instant.now();
        for (Approval due : rows.due(now.minus(RESUMABLE), now, SWEEP)) {
            if (rows.decide(due.id(), null, Approval.Decision.EXPIRED, Approval.By.TIMEOUT, Instant.now())) {
                decided(due, Approval.Decision.EXPIRED, Approval.By.TIMEOUT);
                expired.add(due);
            }
        }
        return expired;
    }

    /** The audit list: the newest decisions and requests first, of one session key when given. */
    public List<Approval> recent(String sessionKey, int limit) {
        return rows.recent(sessionKey, limit);
    }

    private void count(String tool, String outcome) {
        registry.counter("lango.approvals", "tool", tool, "outcome", outcome).increment();
    }

    /** The arguments with every text longer than {@link #MAX_ARG_CHARS} cut, saying how much was left out. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> bounded(Map<String, Object> args) {
        return args == null ? Map.of() : (Map<String, Object>) bound(args);
    }

    private static Object bound(Object value) {
        if (value instanceof String text && text.length() > MAX_ARG_CHARS) {
            return text.substring(0, MAX_ARG_CHARS) + "… (" + (text.length() - MAX_ARG_CHARS) + " more characters)";
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), bound(v)));
            return copy;
        }
        if (value instanceof java.util.Collection<?> list) {
            return list.stream().map(Approvals::bound).toList();
        }
        return value;
    }

    static String canonical(Map<String, Object> args) {
        try {
            return CANONICAL.writeValueAsString(args == null ? Map.of() : args);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("arguments that are not JSON: " + e.getMessage(), e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
