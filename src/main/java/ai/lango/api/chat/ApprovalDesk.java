package ai.lango.api.chat;

import ai.lango.turns.TurnRefused;
import ai.lango.turns.Turns;
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
 * memory — no thread, connection or lock is held while a person thinks), where the turn an answer (or
 * the timeout, which the application layer sweeps for every edge) continues sends its events, and
 * {@code approval.resolved} to the user's sockets on this server. A socket that connects is shown its
 * user's requests still waiting. What an answer does is {@link Turns#answer}'s business.
 */
@ApplicationScoped
public class ApprovalDesk {

    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    Approvals approvals;

    @Inject
    Turns turns;

    /** The chat.message request of a socket whose turn waits for an answer. */
    public record Waiter(Session socket, JsonNode requestId, String sessionKey) {
    }

    @Inject
    OpenSockets sockets;

    private final Map<String, Waiter> waiters = new ConcurrentHashMap<>();

    /** A socket of {@code userId} is open: it is shown the user's requests still waiting. */
    void opened(String userId, Session socket) {
        for (Approval pending : approvals.pending(userId)) {
            ChatFrames.send(socket, ChatFrames.approvalRequest(pending.sessionKey(), pending.id(), pending.agent(),
                    pending.tool(), JSON.valueToTree(pending.argsMap()), pending.safety().name().toLowerCase(java.util.Locale.ROOT),
                    pending.expiresAt().toString(), JSON.valueToTree(pending.notesMap())));
        }
    }

    /**
     * The turn of {@code waiter}'s request asks this approval: its response waits for the turn that goes on,
     * whoever answers (or the timeout).
     */
    void await(String approvalId, Waiter waiter) {
        waiters.put(approvalId, waiter);
        turns.hearing(approvalId, continuation(approvalId, null));
    }

    /**
     * {@code caller} answers on {@code answering}; the turn goes on, its events to the socket that asked (or, if that
     * one closed, to {@code answering}). The decision in force: {@code approved} or {@code denied} when this answer
     * decided, what it was already ({@code expired}, …) when not, {@code unknown} for no request of this user's.
     * Throws {@link TurnRefused} when the turn it continues is not let in (the request then stays waiting).
     */
    String answer(Identity caller, String approvalId, boolean approved, Session answering) {
        try {
            turns.answer(caller, approvalId, approved, true, Optional.of(continuation(approvalId, answering)));
            return approved ? Approval.Decision.APPROVED.wire() : Approval.Decision.DENIED.wire();
        } catch (TurnRefused refused) {
            if (refused.status() == 404) {
                return "unknown";
            }
            if (refused.status() == 409) {
                return approvals.get(approvalId).map(a -> a.decision().wire()).orElse("unknown");
            }
            throw refused;
        }
    }

    /** Who hears the turn that goes on after {@code approvalId}: the socket that asked if open, else {@code answering}. */
    private Turns.Continuation continuation(String approvalId, Session answering) {
        List<String> asked = new CopyOnWriteArrayList<>();
        return new Turns.Continuation() {
            private Session target;
            private JsonNode requestId;
            private String sessionKey;

            @Override
            public Turns.Listener listener() {
                Waiter waiter = waiters.remove(approvalId);
                target = waiter != null && waiter.socket().isOpen() ? waiter.socket()
                        : answering != null && answering.isOpen() ? answering : null;
                requestId = waiter != null && target == waiter.socket() ? waiter.requestId() : null;
                sessionKey = waiter != null ? waiter.sessionKey() : approvals.get(approvalId).map(Approval::sessionKey).orElse("");
                Session to = target;
                JsonNode request = requestId;
                String key = sessionKey;
                return Turns.Listener.of(to == null ? event -> { } : TurnStream.listener(next -> await(next.approvalId(),
                        new Waiter(to, request, key)), to, key, asked));
            }

            @Override
            public void continued(CompletableFuture<String> turn) {
                if (target != null) {
                    TurnStream.finish(target, requestId, sessionKey, turn, asked);
                }
            }
        };
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
