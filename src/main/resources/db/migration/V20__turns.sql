-- A turn is durable from its start: what is left to do for it (running, waiting for a person, done, failed) and
-- which server runs it, written with the user's message. The events themselves stay in lango_messages; a turn cut
-- off by a crash is found here and resumed from them.
CREATE TABLE lango_turns (
    id             VARCHAR(64)   NOT NULL PRIMARY KEY,
    user_id        VARCHAR(255)  NOT NULL,
    session_key    VARCHAR(255)  NOT NULL,
    session_scope  VARCHAR(64)   NOT NULL,
    state          VARCHAR(16)   NOT NULL,
    server         VARCHAR(300),
    edge           VARCHAR(16)   NOT NULL,
    reference      VARCHAR(255),
    is_admin       BOOLEAN       NOT NULL,
    credential     VARCHAR(16)   NOT NULL,
    streaming      BOOLEAN       NOT NULL,
    attempts       INTEGER       NOT NULL,
    started_at     BIGINT        NOT NULL,
    run_started_at BIGINT        NOT NULL,
    updated_at     BIGINT        NOT NULL,
    error          VARCHAR(2000)
);
CREATE INDEX ix_lango_turns_state ON lango_turns (state, updated_at);
CREATE INDEX ix_lango_turns_session ON lango_turns (session_scope, state);
CREATE INDEX ix_lango_turns_reference ON lango_turns (reference);
