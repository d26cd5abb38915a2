package ai.lango.security;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A name a JWT user has used: no API token is issued for it (unless lango.auth.jwt.link-token-users). */
@Entity
@Table(name = "lango_jwt_users")
public class JwtUserEntity {

    @Id
    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "first_seen", nullable = false)
    private long firstSeen;

    protected JwtUserEntity() {
    }

    JwtUserEntity(String userId, long firstSeen) {
        this.userId = userId;
        this.firstSeen = firstSeen;
    }
}
