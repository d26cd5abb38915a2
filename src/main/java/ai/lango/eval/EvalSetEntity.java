package ai.lango.eval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One eval set (lango_eval_sets): the set as its file holds it, whose it is, and the file content it came from. */
@Entity
@Table(name = "lango_eval_sets")
public class EvalSetEntity {

    @Id
    @Column(name = "id", nullable = false)
    private String id;

    @Column(name = "owner", nullable = false)
    private String owner;

    @Column(name = "set_id", nullable = false)
    private String setId;

    @Column(name = "eval_set", nullable = false)
    private String evalSet;

    @Column(name = "file_hash")
    private String fileHash;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected EvalSetEntity() {
    }

    EvalSetEntity(String owner, String setId, String evalSet, String fileHash) {
        this.id = key(owner, setId);
        this.owner = owner;
        this.setId = setId;
        update(evalSet, fileHash);
    }

    /** The row's key: the owner ('' shared) and the set's id. */
    static String key(String owner, String setId) {
        return owner + "/" + setId;
    }

    void update(String json, String hash) {
        this.evalSet = json;
        this.fileHash = hash;
        this.updatedAt = System.currentTimeMillis();
    }

    String owner() {
        return owner;
    }

    String setId() {
        return setId;
    }

    String evalSet() {
        return evalSet;
    }

    String fileHash() {
        return fileHash;
    }
}
