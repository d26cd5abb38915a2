-- Sessions, their messages and tool calls, and state shared across sessions.
-- Times are epoch milliseconds (ADK event timestamps are millis; portable across databases).
-- Ids come from sequences that advance by 50: EclipseLink allocates a block per round trip
-- (it reads each value as the top of its block, hence START WITH 50).
-- ${text} is unbounded text: CHARACTER VARYING on H2 (kept in the row, unlike a CLOB), TEXT on
-- PostgreSQL (see ai.lango.session.SchemaMigrations).

CREATE SEQUENCE lango_sessions_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE lango_messages_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE lango_tool_calls_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE lango_sessions (
    id           BIGINT PRIMARY KEY,
    session_key  VARCHAR(255) NOT NULL,
    app_name     VARCHAR(255) NOT NULL,
    user_id      VARCHAR(255) NOT NULL,
    state        ${text} NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    CONSTRAINT uq_lango_sessions_key UNIQUE (session_key)
);
CREATE INDEX ix_lango_sessions_app_user ON lango_sessions (app_name, user_id);

CREATE TABLE lango_messages (
    id          BIGINT PRIMARY KEY,
    session_id  BIGINT NOT NULL,
    role        VARCHAR(16) NOT NULL,
    content     ${text} NOT NULL,
    author      VARCHAR(255),
    created_at  BIGINT NOT NULL,
    tokens      INTEGER NOT NULL,
    raw_event   ${text}
);
-- "The newest messages of one session" is a range scan of this index, in its own order (H2 does
-- not read indexes backwards). Created before the foreign key so that the key uses it too.
CREATE INDEX ix_lango_messages_session_newest ON lango_messages (session_id, id DESC);
ALTER TABLE lango_messages ADD CONSTRAINT fk_lango_messages_session
    FOREIGN KEY (session_id) REFERENCES lango_sessions (id) ON DELETE CASCADE;

CREATE TABLE lango_tool_calls (
    id          BIGINT PRIMARY KEY,
    message_id  BIGINT NOT NULL REFERENCES lango_messages (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    call_id     VARCHAR(255) NOT NULL,
    name        VARCHAR(255) NOT NULL,
    input       ${text},
    output      ${text}
);
CREATE INDEX ix_lango_tool_calls_message ON lango_tool_calls (message_id, seq);

CREATE TABLE lango_shared_state (
    scope_key  VARCHAR(600) PRIMARY KEY,
    state      ${text} NOT NULL
);
