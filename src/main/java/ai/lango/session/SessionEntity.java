package ai.lango.session;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One conversation. Its key is the ADK session id, the WebSocket sessionKey and the admin {key}: unique per app and user. */
@Entity
@Table(name = "lango_sessions")
public class SessionEntity {

    /** Column width of session_key, app_name and user_id (V1 migration). */
    public static final int KEY_LENGTH = 255;

    @Id
    private Long id;

    @Column(name = "session_key", nullable = false, length = KEY_LENGTH)
    private String key;

    @Column(name = "app_name", nullable = false, length = KEY_LENGTH)
    private String appName;

    @Column(name = "user_id", nullable = false, length = KEY_LENGTH)
    private String userId;

    /** Session-scoped state as a JSON object (app: and user: keys live in {@link SharedStateEntity}). */
    @Column(name = "state", nullable = false)
    private String state;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected SessionEntity() {
    }

    /** A new session, its {@code id} taken from the sequence (SessionRows#insert). */
    SessionEntity(long id, String key, String appName, String userId, String state, Instant now) {
        this.id = id;
        this.key = key;
        this.appName = appName;
        this.userId = userId;
        this.state = state;
        this.createdAt = now.toEpochMilli();
        this.updatedAt = now.toEpochMilli();
    }

    Long id() { return id; }
    String key() { return key; }
    String appName() { return appName; }
    String userId() { return userId; }
    String state() { return state; }
    Instant createdAt() { return Instant.ofEpochMilli(createdAt); }
    Instant updatedAt() { return Instant.ofEpochMilli(updatedAt); }

    void state(String json) { this.state = json; }
    void touch(Instant when) { this.updatedAt = when.toEpochMilli(); }
    void renew(Instant now) {
        this.createdAt = now.toEpochMilli();
        this.updatedAt = now.toEpochMilli();
    }
}
