-- Session artifacts: what ADK's artifact service keeps (a browser screenshot, a file a tool wrote), so
-- they outlive a restart and are the same on every server of a cluster. Each save of a name is a new
-- row: versions count 0, 1, 2… per session and name, as ADK numbers them, and the unique constraint is
-- what makes two concurrent saves of one name take different versions (the loser retries).
-- session_scope is SessionRef.scope(); a session's artifacts go when the session is deleted. data is the
-- large byte string type (a BLOB on HSQLDB: a row of up to 10 MiB does not fit its row cache, the LOB
-- store holds it; BYTEA on PostgreSQL).
CREATE TABLE lango_artifacts (
    id            VARCHAR(36)  NOT NULL PRIMARY KEY,
    user_id       VARCHAR(255) NOT NULL,
    session_key   VARCHAR(255) NOT NULL,
    session_scope VARCHAR(32)  NOT NULL,
    name          VARCHAR(255) NOT NULL,
    version       INTEGER      NOT NULL,
    mime_type     VARCHAR(255) NOT NULL,
    data          ${blob}      NOT NULL,
    size          BIGINT       NOT NULL,
    created_at    BIGINT       NOT NULL,
    CONSTRAINT uq_lango_artifacts_version UNIQUE (session_scope, name, version)
);
CREATE INDEX ix_lango_artifacts_session ON lango_artifacts (session_scope);
