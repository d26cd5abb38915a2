package ai.lango.security;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A user with an API token: the token's SHA-256 only, never the token. */
@Entity
@Table(name = "lango_users")
public class UserEntity {

    @Id
    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "token_hash", nullable = false)
    private String tokenHash;

    @Column(name = "is_admin", nullable = false)
    private boolean admin;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected UserEntity() {
    }

    UserEntity(String userId, String tokenHash, boolean admin, Instant createdAt) {
        this.userId = userId;
        this.tokenHash = tokenHash;
        this.admin = admin;
        this.createdAt = createdAt.toEpochMilli();
    }

    String userId() {
        return userId;
    }

    String tokenHash() {
        return tokenHash;
    }

    boolean admin() {
        return admin;
    }

    Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }
}
