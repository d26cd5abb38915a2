package ai.lango.a2a;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One A2A task (lango_a2a_tasks): the task as 1.0 JSON (and its size) beside what lists and sweeps ask by. */
@Entity
@Table(name = "lango_a2a_tasks")
public class A2aTaskEntity {

    @Id
    @Column(name = "id", nullable = false)
    private String id;

    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "context_id", nullable = false)
    private String contextId;

    @Column(name = "session_key", nullable = false)
    private String sessionKey;

    @Column(name = "state", nullable = false)
    private String state;

    @Column(name = "task", nullable = false)
    private String task;

    @Column(name = "task_bytes", nullable = false)
    private long taskBytes;

    @Column(name = "approval_id")
    private String approvalId;

    @Column(name = "runner")
    private String runner;

    @Column(name = "heartbeat_at", nullable = false)
    private long heartbeatAt;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "status_at", nullable = false)
    private long statusAt;

    protected A2aTaskEntity() {
    }

    A2aTaskEntity(A2aTasksStore.Stored stored, String json, long now) {
        this.id = stored.task().id();
        this.userId = stored.userId();
        this.contextId = stored.task().contextId();
        this.sessionKey = stored.sessionKey();
        this.state = stored.task().state().name();
        this.task = json;
        this.taskBytes = A2aTasksStore.utf8Bytes(json);
        this.approvalId = stored.approvalId();
        this.runner = stored.runner();
        this.heartbeatAt = now;
        this.cancelRequested = false;
        this.createdAt = now;
        this.statusAt = A2aTasksStore.statusAt(stored.task(), now);
    }

    String id() {
        return id;
    }

    String userId() {
        return userId;
    }

    String sessionKey() {
        return sessionKey;
    }

    String state() {
        return state;
    }

    String taskJson() {
        return task;
    }

    String approvalId() {
        return approvalId;
    }

    String runner() {
        return runner;
    }

    long heartbeatAt() {
        return heartbeatAt;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    long statusAt() {
        return statusAt;
    }
}
