-- Knowledge the user taught the agent, and learnings: fixes for errors, with the evidence for
-- them. Both belong to the application (every session, every server), not to a session.
-- Saving knowledge upserts by its key; a learning is one per (trigger, error pattern), so
-- concurrent writers meet on the unique constraint instead of writing twice.

CREATE SEQUENCE lango_knowledge_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE lango_learnings_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE lango_knowledge (
    id          BIGINT PRIMARY KEY,
    entry_key   VARCHAR(255) NOT NULL,
    category    VARCHAR(32) NOT NULL,
    content     ${text} NOT NULL,
    tags        ${text} NOT NULL,
    source      VARCHAR(255),
    use_count   INTEGER NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    CONSTRAINT uq_lango_knowledge_key UNIQUE (entry_key)
);

CREATE TABLE lango_learnings (
    id             BIGINT PRIMARY KEY,
    trigger_text   VARCHAR(255) NOT NULL,
    error_pattern  VARCHAR(1000) NOT NULL,
    diagnosis      ${text} NOT NULL,
    fix            ${text} NOT NULL,
    category       VARCHAR(32) NOT NULL,
    origin         VARCHAR(16) NOT NULL,
    occurrences    INTEGER NOT NULL,
    successes      INTEGER NOT NULL,
    failures       INTEGER NOT NULL,
    confidence     DOUBLE PRECISION NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    CONSTRAINT uq_lango_learnings_trigger_pattern UNIQUE (trigger_text, error_pattern)
);
