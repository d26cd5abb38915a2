-- Users with API tokens, issued by an administrator: the token's SHA-256 only. A token names one
-- user, so its hash is unique.
CREATE TABLE lango_users (
    user_id    VARCHAR(255) NOT NULL PRIMARY KEY,
    token_hash VARCHAR(64)  NOT NULL,
    is_admin   BOOLEAN      NOT NULL,
    created_at BIGINT       NOT NULL
);
CREATE UNIQUE INDEX ux_lango_users_token ON lango_users (token_hash);
