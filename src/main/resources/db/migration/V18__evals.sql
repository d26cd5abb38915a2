-- Eval sets (ADK's *.evalset.json, as the file holds it): a shared one (owner '') is every user's to run and
-- an administrator's to change, and is also a file in lango.eval.dir (file_hash: the file's content when it was
-- last read or written, so a changed file is read again); a user's own is theirs alone.
CREATE TABLE lango_eval_sets (
    id         VARCHAR(400) NOT NULL PRIMARY KEY,
    owner      VARCHAR(255) NOT NULL,
    set_id     VARCHAR(128) NOT NULL,
    eval_set   ${text}      NOT NULL,
    file_hash  VARCHAR(64),
    updated_at BIGINT       NOT NULL
);
-- Each run of an eval set: ADK's EvalSetResult with what it ran under and used, owned by who ran it.
CREATE TABLE lango_eval_results (
    id         VARCHAR(400) NOT NULL PRIMARY KEY,
    user_id    VARCHAR(255) NOT NULL,
    set_id     VARCHAR(128) NOT NULL,
    status     VARCHAR(16)  NOT NULL,
    result     ${text}      NOT NULL,
    created_at BIGINT       NOT NULL
);
CREATE INDEX ix_lango_eval_results_user ON lango_eval_results (user_id, created_at);
