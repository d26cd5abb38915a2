-- The vault. lango_vault has one row, 'data': the data key, wrapped (AES-256-GCM) by the key-encryption
-- key, which comes from the passphrase (PBKDF2-HMAC-SHA256, kdf_salt and kdf_iterations kept here) or from
-- a key file in a server's data directory; version counts the changes to lango_secrets, so every server of
-- a cluster sees a secret stored on another. lango_secrets holds secrets (kind 'secret') and the crypto
-- tools' keys (kind 'key'), each value sealed under the data key with its kind, owner and name as
-- associated data; owner '' is what every user shares.
CREATE TABLE lango_vault (
    id             VARCHAR(16)  NOT NULL PRIMARY KEY,
    kek_source     VARCHAR(16)  NOT NULL,
    kdf_salt       VARCHAR(64),
    kdf_iterations INTEGER,
    wrapped_key    VARCHAR(255) NOT NULL,
    version        BIGINT       NOT NULL,
    updated_at     BIGINT       NOT NULL
);
CREATE TABLE lango_secrets (
    id          VARCHAR(36)   NOT NULL PRIMARY KEY,
    owner       VARCHAR(255)  NOT NULL,
    kind        VARCHAR(16)   NOT NULL,
    name        VARCHAR(64)   NOT NULL,
    algorithm   VARCHAR(16),
    sealed      ${text}       NOT NULL,
    public_key  VARCHAR(1024),
    created_at  BIGINT        NOT NULL,
    updated_at  BIGINT        NOT NULL,
    CONSTRAINT uq_lango_secrets_name UNIQUE (owner, kind, name)
);
