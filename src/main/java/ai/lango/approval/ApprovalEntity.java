package ai.lango.approval;

import ai.lango.tool.Safety;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;

/** One request for approval and its decision (lango_approvals). */
@Entity
@Table(name = "lango_approvals")
public class ApprovalEntity {

    @Id
    @Column(name = "id", nullable = false)
    private String id;

    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "session_key", nullable = false)
    private String sessionKey;

    @Column(name = "session_scope", nullable = false)
    private String sessionScope;

    @Column(name = "call_id", nullable = false)
    private String callId;

    @Column(name = "confirmation_id")
    private String confirmationId;

    @Column(name = "agent", nullable = false)
    private String agent;

    @Column(name = "tool", nullable = false)
    private String tool;

    @Column(name = "args", nullable = false)
    private String args;

    @Column(name = "args_hash", nullable = false)
    private String argsHash;

    @Column(name = "safety", nullable = false)
    private String safety;

    @Column(name = "decision", nullable = false)
    private String decision;

    @Column(name = "decided_by")
    private String decidedBy;

    @Column(name = "ran", nullable = false)
    private boolean ran;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "expires_at", nullable = false)
    private long expiresAt;

    @Column(name = "decided_at")
    private Long decidedAt;

    @Column(name = "notes")
    private String notes;

    protected ApprovalEntity() {
    }

    ApprovalEntity(String id, Approvals.Call call, Approval.Decision decision, Approval.By by, boolean ran, Instant now,
                   Instant expires) {
        this.id = id;
        this.userId = call.userId();
        this.sessionKey = call.sessionKey();
        this.sessionScope = call.sessionScope();
        this.callId = call.callId();
        this.agent = call.agent();
        this.tool = call.tool();
        this.args = call.maskedArgs();
        this.argsHash = call.argsHash();
        this.safety = call.safety().name();
        this.decision = decision.name();
        this.decidedBy = by == null ? null : by.name();
        this.ran = ran;
        this.createdAt = now.toEpochMilli();
        this.expiresAt = expires.toEpochMilli();
        this.decidedAt = by == null ? null : now.toEpochMilli();
        this.notes = call.notes().isEmpty() ? null : Approval.json(call.notes());
    }

    Approval view() {
        return new Approval(id, userId, sessionKey, callId, Optional.ofNullable(confirmationId), agent, tool, args,
                Safety.valueOf(safety), Approval.Decision.valueOf(decision),
                Optional.ofNullable(decidedBy).map(Approval.By::valueOf), ran, Instant.ofEpochMilli(createdAt),
                Instant.ofEpochMilli(expiresAt), Optional.ofNullable(decidedAt).map(Instant::ofEpochMilli),
                notes == null ? "{}" : notes);
    }
}
