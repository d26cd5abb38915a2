-- Every model call's usage: whose, which agent or background job, which provider and model, the tokens
-- as reported (estimated: the provider reported none) and the cost by the price table in force then.
-- The agent's calls are written in the transaction of the turn's event that carries their answer.
CREATE TABLE lango_usage (
    id            VARCHAR(36)    NOT NULL PRIMARY KEY,
    user_id       VARCHAR(255)   NOT NULL,
    session_key   VARCHAR(255),
    agent         VARCHAR(255)   NOT NULL,
    provider      VARCHAR(64)    NOT NULL,
    model         VARCHAR(255)   NOT NULL,
    purpose       VARCHAR(32)    NOT NULL,
    input_tokens  BIGINT         NOT NULL,
    output_tokens BIGINT         NOT NULL,
    cached_tokens BIGINT         NOT NULL,
    estimated     BOOLEAN        NOT NULL,
    cost_usd      NUMERIC(20, 9) NOT NULL,
    at_millis     BIGINT         NOT NULL,
    day_utc       VARCHAR(10)    NOT NULL
);
CREATE INDEX ix_lango_usage_user ON lango_usage (user_id, at_millis);
CREATE INDEX ix_lango_usage_at ON lango_usage (at_millis);
-- Budgets set for one user over lango.quota.*'s (NULL: the setting's; 0: no limit).
CREATE TABLE lango_usage_budgets (
    user_id        VARCHAR(255)   NOT NULL PRIMARY KEY,
    tokens_per_day BIGINT,
    cost_per_day   NUMERIC(20, 9),
    cost_per_month NUMERIC(20, 9)
);
