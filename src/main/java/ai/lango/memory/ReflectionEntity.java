package ai.lango.memory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One reflection: observations (generation 1) or reflections (generation max+1) folded into one text. */
@Entity
@Table(name = "lango_reflections")
public class ReflectionEntity {

    @Id
    @SequenceGenerator(name = "lango_memory_seq", sequenceName = "lango_memory_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_memory_seq")
    private Long id;

    @Column(name = "session_id", nullable = false)
    private long sessionId;

    @Column(name = "content", nullable = false)
    private String content;

    @Column(name = "tokens", nullable = false)
    private int tokens;

    @Column(name = "generation", nullable = false)
    private int generation;

    /** The reflection of the next generation that took this one's place; null while it is offered. */
    @Column(name = "folded_into")
    private Long foldedInto;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected ReflectionEntity() {
    }

    ReflectionEntity(long sessionId, String content, int tokens, int generation, Instant at) {
        this.sessionId = sessionId;
        this.content = content;
        this.tokens = tokens;
        this.generation = generation;
        this.createdAt = at.toEpochMilli();
    }

    Long id() {
        return id;
    }

    Reflection view() {
        return new Reflection(id, content, tokens, generation, Instant.ofEpochMilli(createdAt), foldedInto);
    }
}
