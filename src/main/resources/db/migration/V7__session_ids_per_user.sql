-- Session ids belong to their user: two users may each have a session "default", and creating one
-- must not tell a user that another holds the id. The key is unique per app and user; operators
-- still look sessions up by key alone (the admin API), hence the index on it. The unique
-- constraint's index serves the per-user listing that the (app, user) index served.
ALTER TABLE lango_sessions DROP CONSTRAINT uq_lango_sessions_key;
ALTER TABLE lango_sessions ADD CONSTRAINT uq_lango_sessions_app_user_key UNIQUE (app_name, user_id, session_key);
DROP INDEX ix_lango_sessions_app_user;
CREATE INDEX ix_lango_sessions_key ON lango_sessions (session_key);

-- Leases are now named by the session's scope (app, user and key hashed), not its key; a lease
-- row left by a server that stopped under the old naming would never be released.
DELETE FROM lango_session_leases;
