package ai.lango.memory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One observation: a session's stored messages from one id to another, compressed by the model. */
@Entity
@Table(name = "lango_observations")
public class ObservationEntity {

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

    @Column(name = "first_message_id", nullable = false)
    private long firstMessageId;

    @Column(name = "last_message_id", nullable = false)
    private long lastMessageId;

    /** The reflection that took this observation's place; null while it is offered to the model. */
    @Column(name = "folded_into")
    private Long foldedInto;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected ObservationEntity() {
    }

    ObservationEntity(long sessionId, String content, int tokens, long firstMessageId, long lastMessageId, Instant at) {
        this.sessionId = sessionId;
        this.content = content;
        this.tokens = tokens;
        this.firstMessageId = firstMessageId;
        this.lastMessageId = lastMessageId;
        this.createdAt = at.toEpochMilli();
    }

    Observation view() {
        return new Observation(id, content, tokens, firstMessageId, lastMessageId, Instant.ofEpochMilli(createdAt),
                foldedInto);
    }
}
