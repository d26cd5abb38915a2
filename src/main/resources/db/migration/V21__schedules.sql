-- Scheduled turns: each row a user's schedule (cron, every or at, in a zone) of a message in one of their sessions.
-- Every server polls for due rows and claims a fire with a conditional UPDATE on next_fire, so one server wins each
-- time; claim_fire/claimed_by/claimed_at stay set until that fire's turn is durable (its lango_turns row exists, found
-- by reference) or was skipped, and a claim whose server stopped renewing it is taken over (docs/scale-out.md).
CREATE TABLE lango_schedules (
    id          VARCHAR(64)   NOT NULL PRIMARY KEY,
    user_id     VARCHAR(255)  NOT NULL,
    session_key VARCHAR(255)  NOT NULL,
    message     ${text}       NOT NULL,
    kind        VARCHAR(8)    NOT NULL,
    spec        VARCHAR(255)  NOT NULL,
    zone        VARCHAR(64)   NOT NULL,
    paused      BOOLEAN       NOT NULL,
    next_fire   BIGINT,
    last_fire   BIGINT,
    last_result VARCHAR(2000),
    created_at  BIGINT        NOT NULL,
    claim_fire  BIGINT,
    claimed_by  VARCHAR(300),
    claimed_at  BIGINT
);
CREATE INDEX ix_lango_schedules_due ON lango_schedules (next_fire);
CREATE INDEX ix_lango_schedules_claim ON lango_schedules (claimed_at);
CREATE INDEX ix_lango_schedules_user ON lango_schedules (user_id, created_at);
