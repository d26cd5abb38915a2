package ai.lango.retrieval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One stored vector, with the text and the model it was computed from. Never updated: replaced. */
@Entity
@Table(name = "lango_embeddings")
public class EmbeddingEntity {

    @Id
    @SequenceGenerator(name = "lango_embeddings_seq", sequenceName = "lango_embeddings_seq", allocationSize = 1)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_embeddings_seq")
    private Long id;

    @Column(name = "collection", nullable = false)
    private String collection;

    @Column(name = "source_id", nullable = false)
    private String sourceId;

    /** The document's scope; '' for a shared one (the unique constraint needs a value). */
    @Column(name = "scope", nullable = false)
    private String scope;

    @Column(name = "model", nullable = false)
    private String model;

    @Column(name = "content", nullable = false)
    private String content;

    @Column(name = "vector", nullable = false)
    private byte[] vector;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected EmbeddingEntity() {
    }

    EmbeddingEntity(Document document, String model, float[] vector, long now) {
        this.collection = document.collection();
        this.sourceId = document.sourceId();
        this.scope = column(document.scope());
        this.content = document.content();
        this.model = model;
        this.vector = Vectors.toBytes(vector);
        this.createdAt = now;
    }

    /** How the column holds a document's scope. */
    static String column(String scope) {
        return scope == null ? "" : scope;
    }

    StoredVector view() {
        return new StoredVector(id, new Document(collection, sourceId, scope.isEmpty() ? null : scope, content), model, Vectors.fromBytes(vector), createdAt);
    }
}
