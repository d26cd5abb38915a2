-- The names JWT users have used (lango.auth.jwt.link-token-users=false): a name belongs to one kind of
-- credential, so that no API token is issued for a JWT user's name and no JWT gets a token user's data.
CREATE TABLE lango_jwt_users (
    user_id    VARCHAR(255) NOT NULL PRIMARY KEY,
    first_seen BIGINT       NOT NULL
);
