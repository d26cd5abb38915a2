package ai.lango.session;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** A function call (input) or a function response (output) carried by a message. */
@Entity
@Table(name = "lango_tool_calls")
public class ToolCallEntity {

    @Id
    @SequenceGenerator(name = "lango_tool_calls_seq", sequenceName = "lango_tool_calls_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_tool_calls_seq")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "message_id", nullable = false)
    private MessageEntity message;

    @Column(name = "seq", nullable = false)
    private int position;

    @Column(name = "call_id", nullable = false)
    private String callId;

    @Column(name = "name", nullable = false)
    private String name;

    @Column(name = "input")
    private String input;

    @Column(name = "output")
    private String output;

    protected ToolCallEntity() {
    }

    ToolCallEntity(MessageEntity message, int position, ToolCall call) {
        this.message = message;
        this.position = position;
        this.callId = call.id();
        this.name = call.name();
        this.input = call.input();
        this.output = call.output();
    }

    int position() {
        return position;
    }

    ToolCall toToolCall() {
        return new ToolCall(callId, name, input, output);
    }
}
