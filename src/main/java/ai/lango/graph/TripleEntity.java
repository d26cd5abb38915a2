package ai.lango.graph;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.util.Map;

/**
 * One triple, unique by subject, predicate, object and scope (whose it is: a session's, an owner's,
 * or '' when shared); its metadata as a JSON object.
 */
@Entity
@Table(name = "lango_triples")
public class TripleEntity {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() { };

    @Id
    @SequenceGenerator(name = "lango_triples_seq", sequenceName = "lango_triples_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_triples_seq")
    private Long id;

    @Column(name = "subject", nullable = false)
    private String subject;

    @Column(name = "predicate", nullable = false)
    private String predicate;

    @Column(name = "object", nullable = false)
    private String object;

    @Column(name = "metadata", nullable = false)
    private String metadata;

    @Column(name = "source")
    private String source;

    @Column(name = "scope", nullable = false)
    private String scope;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected TripleEntity() {
    }

    TripleEntity(Triple triple, String source, String scope, long now) {
        this.subject = triple.subject();
        this.predicate = triple.predicate();
        this.object = triple.object();
        try {
            this.metadata = JSON.writeValueAsString(triple.metadata());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
        this.source = source;
        this.scope = scope;
        this.createdAt = now;
    }

    Triple view() {
        Map<String, String> meta;
        try {
            meta = JSON.readValue(metadata, MAP);
        } catch (JsonProcessingException e) {
            meta = Map.of();
        }
        return new Triple(subject, predicate, object, meta);
    }
}
