-- Observational memory: observations compress a range of a session's stored messages, reflections
-- fold observations (generation 1) or earlier reflections (generation max+1). Nothing is deleted
-- when folding: folded_into names the reflection that took an item's place, and only items not
-- folded are offered to the model. Both go with their session (ON DELETE CASCADE), never with a
-- message: chat messages are never deleted by memory.
-- The unique range start is what keeps two servers from observing the same messages twice.

CREATE SEQUENCE lango_memory_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE lango_reflections (
    id           BIGINT PRIMARY KEY,
    session_id   BIGINT NOT NULL REFERENCES lango_sessions (id) ON DELETE CASCADE,
    content      ${text} NOT NULL,
    tokens       INTEGER NOT NULL,
    generation   INTEGER NOT NULL,
    folded_into  BIGINT REFERENCES lango_reflections (id),
    created_at   BIGINT NOT NULL
);
CREATE INDEX ix_lango_reflections_session ON lango_reflections (session_id, id);

CREATE TABLE lango_observations (
    id                BIGINT PRIMARY KEY,
    session_id        BIGINT NOT NULL REFERENCES lango_sessions (id) ON DELETE CASCADE,
    content           ${text} NOT NULL,
    tokens            INTEGER NOT NULL,
    first_message_id  BIGINT NOT NULL,
    last_message_id   BIGINT NOT NULL,
    folded_into       BIGINT REFERENCES lango_reflections (id),
    created_at        BIGINT NOT NULL,
    CONSTRAINT uq_lango_observations_range UNIQUE (session_id, first_message_id)
);
