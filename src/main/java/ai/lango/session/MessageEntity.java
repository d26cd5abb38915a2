package ai.lango.session;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One stored message. Ordered by its id: each message takes the sequence's next value as it is
 * written (not a block per server), so the order holds when several servers write one session. The
 * index (session_id, id) makes "the newest messages of one session" an index range scan.
 */
@Entity
@Table(name = "lango_messages")
public class MessageEntity {

    @Id
    @SequenceGenerator(name = "lango_messages_seq", sequenceName = "lango_messages_seq", allocationSize = 1)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_messages_seq")
    private Long id;

    @Column(name = "session_id", nullable = false)
    private Long sessionId;

    @Column(name = "role", nullable = false, length = 16)
    private String role;

    @Column(name = "content", nullable = false)
    private String content;

    @Column(name = "author")
    private String author;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    /** TokenEstimator.messageTokens at write time, so budget reads need no recomputation. */
    @Column(name = "tokens", nullable = false)
    private int tokens;

    /** The original event as the agent framework serialised it; null for messages stored without one. */
    @Column(name = "raw_event")
    private String rawEvent;

    @OneToMany(mappedBy = "message", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("position")
    private List<ToolCallEntity> toolCalls = new ArrayList<>();

    protected MessageEntity() {
    }

    MessageEntity(Long sessionId, Message message) {
        this.sessionId = sessionId;
        this.role = message.role();
        this.content = message.content();
        this.author = message.author();
        this.createdAt = message.timestamp().toEpochMilli();
        this.tokens = TokenEstimator.messageTokens(message);
        this.rawEvent = message.raw();
        int position = 0;
        for (ToolCall call : message.toolCalls()) {
            toolCalls.add(new ToolCallEntity(this, position++, call));
        }
    }

    /** The message as it reads back once stored (its time in milliseconds, its calls in order). */
    static Message asStored(Message message) {
        return new MessageEntity(null, message).toMessage();
    }

    Long id() { return id; }
    int tokens() { return tokens; }

    /** Whether the row is the message alone, without tool call rows: what {@link #INSERT} writes. */
    boolean alone() {
        return toolCalls.isEmpty();
    }

    /**
     * The row over JDBC, for the group commit's messages: no unit of work per message. {@code %s} is
     * the database's expression for the sequence's next value, taken as the row is written (the
     * order of a session's messages, as with {@code allocationSize = 1} above).
     */
    static final String INSERT = "INSERT INTO lango_messages (id, session_id, role, content, author, created_at, tokens,"
            + " raw_event) VALUES (%s, ?, ?, ?, ?, ?, ?, ?)";

    /** Sets {@link #INSERT}'s parameters to this row's columns. */
    void bind(PreparedStatement insert) throws SQLException {
        insert.setLong(1, sessionId);
        insert.setString(2, role);
        insert.setString(3, content);
        insert.setString(4, author);
        insert.setLong(5, createdAt);
        insert.setInt(6, tokens);
        insert.setString(7, rawEvent);
    }

    Message toMessage() {
        // In call order whichever way they were fetched (a join fetch does not apply @OrderBy).
        List<ToolCall> calls = toolCalls.stream().sorted(Comparator.comparingInt(ToolCallEntity::position))
                .map(ToolCallEntity::toToolCall).toList();
        return new Message(role, content, Instant.ofEpochMilli(createdAt), author, calls, rawEvent);
    }
}
