package ai.lango.eval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One run's result (lango_eval_results), owned by the user who ran it. */
@Entity
@Table(name = "lango_eval_results")
public class EvalResultEntity {

    @Id
    @Column(name = "id", nullable = false)
    private String id;

    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "set_id", nullable = false)
    private String setId;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "result", nullable = false)
    private String result;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected EvalResultEntity() {
    }

    EvalResultEntity(String id, String userId, String setId, String status, String result, long createdAt) {
        this.id = id;
        this.userId = userId;
        this.setId = setId;
        this.status = status;
        this.result = result;
        this.createdAt = createdAt;
    }

    String id() {
        return id;
    }

    String userId() {
        return userId;
    }

    String result() {
        return result;
    }
}
