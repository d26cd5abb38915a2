package ai.lango.artifact;

import ai.lango.turn.SessionRef;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One version of a session's artifact (lango_artifacts). Never updated: a new save is a new row. */
@Entity
@Table(name = "lango_artifacts")
public class ArtifactEntity {

    @Id
    @Column(name = "id", nullable = false)
    String id;

    @Column(name = "user_id", nullable = false)
    String userId;

    @Column(name = "session_key", nullable = false)
    String sessionKey;

    @Column(name = "session_scope", nullable = false)
    String sessionScope;

    @Column(name = "name", nullable = false)
    String name;

    @Column(name = "version", nullable = false)
    int version;

    @Column(name = "mime_type", nullable = false)
    String mimeType;

    @Column(name = "data", nullable = false)
    byte[] data;

    @Column(name = "size", nullable = false)
    long size;

    @Column(name = "created_at", nullable = false)
    long createdAt;

    protected ArtifactEntity() {
    }

    ArtifactEntity(String id, SessionRef session, String name, int version, String mimeType, byte[] data, long now) {
        this.id = id;
        this.userId = session.userId();
        this.sessionKey = session.key();
        this.sessionScope = session.scope();
        this.name = name;
        this.version = version;
        this.mimeType = mimeType;
        this.data = data;
        this.size = data.length;
        this.createdAt = now;
    }

    Artifact view() {
        return new Artifact(name, version, mimeType, data, Instant.ofEpochMilli(createdAt));
    }
}
