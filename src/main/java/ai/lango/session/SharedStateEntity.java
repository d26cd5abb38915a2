package ai.lango.session;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** State shared beyond one session: "app:" keys per app, "user:" keys per app and user. */
@Entity
@Table(name = "lango_shared_state")
public class SharedStateEntity {

    /** "app/{app}" or "user/{app}/{user}". */
    @Id
    @Column(name = "scope_key", length = 600)
    private String scope;

    @Column(name = "state", nullable = false)
    private String state;

    protected SharedStateEntity() {
    }

    SharedStateEntity(String scope, String state) {
        this.scope = scope;
        this.state = state;
    }

    static String appScope(String appName) {
        return "app/" + appName;
    }

    static String userScope(String appName, String userId) {
        return "user/" + appName + "/" + userId;
    }

    String scope() { return scope; }
    String state() { return state; }
    void state(String json) { this.state = json; }
}
