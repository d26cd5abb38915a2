-- Several servers on one database. A turn holds its session's lease row, renewed while it runs and
-- deleted when it ends, so a turn of the same session on another server waits; a server that dies
-- holding one loses it when it expires (lango.session.lease-timeout). No connection is held meanwhile.
CREATE TABLE lango_session_leases (
    session_key  VARCHAR(255) PRIMARY KEY,
    owner        VARCHAR(255) NOT NULL,
    expires_at   BIGINT NOT NULL
);

-- A session's messages are read in id order. Ids allocated fifty at a time per server interleave
-- when two servers write one session (a later message could get a lower id), so each message now
-- takes the sequence's next value as it is written.
ALTER SEQUENCE lango_messages_seq INCREMENT BY 1;
