package ai.lango.learning;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One learning, unique by (owner, trigger, error pattern); its confidence is kept in step with its counts. */
@Entity
@Table(name = "lango_learnings")
public class LearningEntity {

    /** Longest error pattern kept: enough to tell errors apart, short enough to index. */
    static final int MAX_PATTERN = 1000;

    @Id
    @SequenceGenerator(name = "lango_learnings_seq", sequenceName = "lango_learnings_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_learnings_seq")
    private Long id;

    @Column(name = "owner", nullable = false)
    private String owner;

    @Column(name = "trigger_text", nullable = false)
    private String trigger;

    @Column(name = "error_pattern", nullable = false)
    private String errorPattern;

    @Column(name = "diagnosis", nullable = false)
    private String diagnosis;

    @Column(name = "fix", nullable = false)
    private String fix;

    @Column(name = "category", nullable = false)
    private String category;

    @Column(name = "origin", nullable = false)
    private String origin;

    @Column(name = "occurrences", nullable = false)
    private int occurrences;

    @Column(name = "successes", nullable = false)
    private int successes;

    @Column(name = "failures", nullable = false)
    private int failures;

    @Column(name = "confidence", nullable = false)
    private double confidence;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected LearningEntity() {
    }

    LearningEntity(String owner, String trigger, String errorPattern, Instant now) {
        this.owner = owner;
        this.trigger = trigger;
        this.errorPattern = errorPattern;
        this.diagnosis = "";
        this.fix = "";
        this.category = ErrorPatterns.GENERAL;
        this.origin = Confidence.Source.OBSERVED.name();
        this.createdAt = now.toEpochMilli();
        recompute(now);
    }

    static String pattern(String errorPattern) {
        String p = errorPattern == null ? "" : errorPattern;
        return p.length() > MAX_PATTERN ? p.substring(0, MAX_PATTERN) : p;
    }

    /** A fix given explicitly: the evidence starts anew, at the saved prior. */
    void saveFix(String fix, String diagnosis, String category, Instant now) {
        this.fix = fix;
        this.diagnosis = diagnosis == null ? this.diagnosis : diagnosis;
        this.category = category;
        this.origin = Confidence.Source.SAVED.name();
        this.successes = 0;
        this.failures = 0;
        recompute(now);
    }

    /** The error happened (again): one more occurrence, and evidence against. */
    void occurred(String diagnosis, String category, Instant now) {
        this.occurrences++;
        if (occurrences > 1) {
            this.failures++;
        }
        if (this.diagnosis.isEmpty()) {
            this.diagnosis = diagnosis;
        }
        if (ErrorPatterns.GENERAL.equals(this.category)) {
            this.category = category;
        }
        recompute(now);
    }

    /** Now every user's (an administrator promoted it). */
    void share() {
        this.owner = ai.lango.security.Ownership.SHARED;
    }

    void succeeded(Instant now) {
        this.successes++;
        recompute(now);
    }

    void failed(Instant now) {
        this.failures++;
        recompute(now);
    }

    private void recompute(Instant now) {
        this.confidence = Confidence.of(Confidence.Source.valueOf(origin), successes, failures);
        this.updatedAt = now.toEpochMilli();
    }

    Learning view() {
        return new Learning(id, owner, trigger, errorPattern, diagnosis, fix, category, Confidence.Source.valueOf(origin),
                occurrences, successes, failures, confidence, Instant.ofEpochMilli(createdAt), Instant.ofEpochMilli(updatedAt));
    }
}
