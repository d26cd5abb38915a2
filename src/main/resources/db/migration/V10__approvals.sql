-- Requests for a person's approval of a tool call, and every decision on them: the audit list. A
-- request is bound to its user, session, the model's call id, the tool and the exact arguments (their
-- SHA-256; the arguments themselves are kept with secrets masked). It is answered at most once
-- (decision moves from 'pending' under a WHERE on it) and runs at most once (ran). Calls of moderate or
-- dangerous tools that the policy let through are recorded too (decided_by 'policy').
CREATE TABLE lango_approvals (
    id              VARCHAR(36)  NOT NULL PRIMARY KEY,
    user_id         VARCHAR(255) NOT NULL,
    session_key     VARCHAR(255) NOT NULL,
    session_scope   VARCHAR(32)  NOT NULL,
    call_id         VARCHAR(255) NOT NULL,
    confirmation_id VARCHAR(64),
    agent           VARCHAR(255) NOT NULL,
    tool            VARCHAR(255) NOT NULL,
    args            ${text}      NOT NULL,
    args_hash       VARCHAR(64)  NOT NULL,
    safety          VARCHAR(16)  NOT NULL,
    decision        VARCHAR(16)  NOT NULL,
    decided_by      VARCHAR(16),
    ran             BOOLEAN      NOT NULL,
    created_at      BIGINT       NOT NULL,
    expires_at      BIGINT       NOT NULL,
    decided_at      BIGINT
);
CREATE INDEX ix_lango_approvals_session ON lango_approvals (session_scope, decision);
CREATE INDEX ix_lango_approvals_due ON lango_approvals (decision, expires_at);
CREATE INDEX ix_lango_approvals_user ON lango_approvals (user_id, decision);
CREATE INDEX ix_lango_approvals_key ON lango_approvals (session_key, created_at);
