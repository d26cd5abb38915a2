package ai.lango.knowledge;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** One piece of knowledge, unique by its owner and key ('' owns what is shared). Tags are kept one per line. */
@Entity
@Table(name = "lango_knowledge")
public class KnowledgeEntity {

    @Id
    @SequenceGenerator(name = "lango_knowledge_seq", sequenceName = "lango_knowledge_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lango_knowledge_seq")
    private Long id;

    @Column(name = "owner", nullable = false)
    private String owner;

    @Column(name = "entry_key", nullable = false)
    private String key;

    @Column(name = "category", nullable = false)
    private String category;

    @Column(name = "content", nullable = false)
    private String content;

    @Column(name = "tags", nullable = false)
    private String tags;

    @Column(name = "source")
    private String source;

    @Column(name = "use_count", nullable = false)
    private int useCount;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected KnowledgeEntity() {
    }

    KnowledgeEntity(KnowledgeEntry entry, Instant now) {
        this.owner = entry.owner();
        this.key = entry.key();
        this.createdAt = now.toEpochMilli();
        update(entry, now);
    }

    /** Takes the entry's category, content, tags and source; the owner, key, use count and creation time stay. */
    void update(KnowledgeEntry entry, Instant now) {
        this.category = entry.category();
        this.content = entry.content();
        this.tags = String.join("\n", entry.tags());
        this.source = entry.source();
        this.updatedAt = now.toEpochMilli();
    }

    KnowledgeEntry view() {
        List<String> tagList = tags.isEmpty() ? List.of() : Arrays.asList(tags.split("\n"));
        return new KnowledgeEntry(owner, key, category, content, tagList, source, useCount, Instant.ofEpochMilli(createdAt),
                Instant.ofEpochMilli(updatedAt));
    }
}
