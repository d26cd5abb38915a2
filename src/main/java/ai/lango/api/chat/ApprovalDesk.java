package ai.lango.api.chat;

import ai.lango.adk.AgentService;
import ai.lango.api.ApiJson;
import ai.lango.approval.Approval;
import ai.lango.approval.ApprovalResolved;
import ai.lango.approval.Approvals;
import ai.lango.masking.MaskedLogs;
import ai.lango.security.Identity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.websocket.Session;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where /ws meets the requests for approval: which socket's request waits for which answer (in
 * memory — no thread, connection or lock is held while a person thinks), the answer that resumes a
 * turn, the timeout that expires one (checked every second, on every server, each request taken by
 * one), and {@code approval.resolved} to the user's sockets on this server. A socket that connects
 * is shown its user's requests still waiting.
 */
@ApplicationScoped
public class ApprovalDesk {

    private static final Logger LOG = MaskedLogs.of(ApprovalDesk.class);
    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    Approvals approvals;

    @Inject
    AgentService agent;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /** The chat.message request of a socket whose turn waits for an answer. */
    public record Waiter(Session socket, JsonNode requestId, String sessionKey) {
    }

    @Inject
    OpenSockets sockets;

    private final Map<String, Waiter> waiters = new ConcurrentHashMap<>();
    private ScheduledFuture<?> sweep;

    @PostConstruct
    void start() {
        sweep = scheduler.scheduleWithFixedDelay(this::expire, 1, 1, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    /** A socket of {@code userId} is open: it is shown the user's requests still waiting. */
    void opened(String userId, Session socket) {
        for (Approval pending : approvals.pending(userId)) {
            ChatFrames.send(socket, ChatFrames.approvalRequest(pending.sessionKey(), pending.id(), pending.agent(),
                    pending.tool(), JSON.valueToTree(pending.argsMap()), pending.safety().name().toLowerCase(java.util.Locale.ROOT),
                    pending.expiresAt().toString(), JSON.valueToTree(pending.notesMap())));
        }
    }

    /** The turn of {@code waiter}'s request asks this approval: its response waits for the answer's turn. */
    void await(String approvalId, Waiter waiter) {
        waiters.put(approvalId, waiter);
    }

    /**
     * {@code userId} answers (with a credential that administers in that user's sessions, or not); an
     * answer that decided resumes the turn. The decision in force, if the user has that request.
     */
    Optional<Approvals.Outcome> answer(String userId, boolean admin, String approvalId, boolean approved, Session answering) {
        Optional<Approvals.Outcome> outcome = approvals.decide(approvalId, userId, approved, Approval.By.USER);
        if (outcome.isPresent() && outcome.get().decidedNow()) {
            resume(approvalId, admin, answering);
        }
        return outcome;
    }

    /**
     * Resumes the turn that asked, now decided: its events go to the socket that asked (or, if that
     * one closed, to {@code answering}); the request that started it gets its response when it ends.
     */
    private void resume(String approvalId, boolean admin, Session answering) {
        Optional<Approval> decided = approvals.get(approvalId);
        if (decided.isEmpty()) {
            return;
        }
        Approval approval = decided.get();
        Waiter waiter = waiters.remove(approvalId);
        Session target = waiter != null && waiter.socket().isOpen() ? waiter.socket()
                : answering != null && answering.isOpen() ? answering : null;
        JsonNode requestId = waiter != null && target == waiter.socket() ? waiter.requestId() : null;
        List<String> asked = new CopyOnWriteArrayList<>();
        CompletableFuture<String> turn = agent.resume(approval, admin, true,
                target == null ? event -> { } : TurnStream.listener(request -> await(request.approvalId(),
                        new Waiter(target, requestId, approval.sessionKey())), target, approval.sessionKey(), asked));
        if (target != null) {
            TurnStream.finish(target, requestId, approval.sessionKey(), turn, asked);
        } else {
            turn.whenComplete((answer, failure) -> {
                if (failure != null) {
                    LOG.info(() -> "the turn resumed after approval " + approvalId + " failed: " + failure.getMessage());
                }
            });
        }
    }

    /** Expires what waited past its time and resumes those turns: the model is told the call did not run. */
    void expire() {
        try {
            for (Approval expired : approvals.expireDue()) {
                // Nobody answered: the resumed turn administers only in the operator's own sessions.
                resume(expired.id(), Identity.reserved(expired.userId()), null);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "expiring requests for approval failed: " + e.getMessage(), e);
        }
    }

    /** Every decision goes to its user's sockets here; a superseded request's chat.message ends (its turn will not resume). */
    void resolved(@Observes ApprovalResolved resolved) {
        Approval approval = resolved.approval();
        ObjectNode payload = ChatFrames.payload(approval.sessionKey()).put("approvalId", approval.id())
                .put("decision", resolved.decision().wire()).put("by", resolved.by().wire());
        for (Session socket : sockets.of(approval.userId())) {
            ChatFrames.send(socket, ChatFrames.event("approval.resolved", payload));
        }
        if (resolved.by() == Approval.By.SUPERSEDED) {
            Waiter waiter = waiters.remove(approval.id());
            if (waiter != null && waiter.socket().isOpen() && waiter.requestId() != null) {
                ChatFrames.send(waiter.socket(), ChatFrames.event("agent.done", ChatFrames.payload(waiter.sessionKey())));
                ChatFrames.send(waiter.socket(), ChatFrames.error(waiter.requestId(), "approval_superseded",
                        "a new message on session \"" + waiter.sessionKey() + "\" came before an answer; the call did not run"));
            }
        }
    }
}
