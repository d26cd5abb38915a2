-- The tasks A2A callers start: one row per task, owned by the caller's user, with the task as A2A 1.0
-- JSON (status, artifacts, history), its state and status time apart for lists, the approval it waits
-- for (input-required), and, while a turn works on it, the server that runs it, that server's last sign
-- of life (a task whose server went silent failed with it) and a cancel asked from another server.
CREATE TABLE lango_a2a_tasks (
    id               VARCHAR(64)  NOT NULL PRIMARY KEY,
    user_id          VARCHAR(255) NOT NULL,
    context_id       VARCHAR(255) NOT NULL,
    session_key      VARCHAR(255) NOT NULL,
    state            VARCHAR(24)  NOT NULL,
    task             ${text}      NOT NULL,
    approval_id      VARCHAR(36),
    runner           VARCHAR(255),
    heartbeat_at     BIGINT       NOT NULL,
    cancel_requested BOOLEAN      NOT NULL,
    created_at       BIGINT       NOT NULL,
    status_at        BIGINT       NOT NULL
);
CREATE INDEX ix_lango_a2a_tasks_user ON lango_a2a_tasks (user_id, status_at);
CREATE INDEX ix_lango_a2a_tasks_approval ON lango_a2a_tasks (approval_id);
