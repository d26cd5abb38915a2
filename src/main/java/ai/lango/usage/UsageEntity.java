package ai.lango.usage;

import ai.lango.turn.ModelCall;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.util.UUID;

/** One model call's usage (lango_usage). */
@Entity
@Table(name = "lango_usage")
public class UsageEntity {

    @Id
    @Column(name = "id", nullable = false)
    private String id;

    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "session_key")
    private String sessionKey;

    @Column(name = "agent", nullable = false)
    private String agent;

    @Column(name = "provider", nullable = false)
    private String provider;

    @Column(name = "model", nullable = false)
    private String model;

    @Column(name = "purpose", nullable = false)
    private String purpose;

    @Column(name = "input_tokens", nullable = false)
    private long inputTokens;

    @Column(name = "output_tokens", nullable = false)
    private long outputTokens;

    @Column(name = "cached_tokens", nullable = false)
    private long cachedTokens;

    @Column(name = "estimated", nullable = false)
    private boolean estimated;

    @Column(name = "cost_usd", nullable = false)
    private BigDecimal costUsd;

    @Column(name = "at_millis", nullable = false)
    private long atMillis;

    /** The call's day (UTC, YYYY-MM-DD), for sums by day. */
    @Column(name = "day_utc", nullable = false)
    private String dayUtc;

    protected UsageEntity() {
    }

    public UsageEntity(ModelCall call) {
        this.id = UUID.randomUUID().toString();
        this.userId = call.userId();
        this.sessionKey = call.sessionKey();
        this.agent = call.agent();
        this.provider = call.provider();
        this.model = call.model();
        this.purpose = call.purpose();
        this.inputTokens = call.inputTokens();
        this.outputTokens = call.outputTokens();
        this.cachedTokens = call.cachedTokens();
        this.estimated = call.estimated();
        this.costUsd = call.costUsd();
        this.atMillis = call.at().toEpochMilli();
        this.dayUtc = UsageRows.day(call.at());
    }
}
