-- Retrieval and the knowledge graph.
--
-- lango_embeddings: one vector per retrievable row (knowledge, learning, observation, reflection),
-- with the text it was computed from and the model that computed it, so a change of model is seen
-- and the row embedded again. Replacing a vector deletes and inserts: ids only grow (the sequence
-- hands out one at a time), which lets every server tell from COUNT(*) and MAX(id) whether its
-- in-memory copy is current. Observations and reflections carry their session; knowledge and
-- learnings belong to everyone (session_scope NULL). A session is named by its scope (app, user and
-- id hashed, see ai.lango.turn.SessionRef), as ids are unique per user only.
--
-- lango_triples: subject-predicate-object facts with JSON metadata, unique per triple; the unique
-- constraint serves subject-first lookups, the two indexes predicate-first and object-first ones.
-- source names the row a triple came from ("knowledge:<key>"), so they go when it goes.

CREATE SEQUENCE lango_embeddings_seq START WITH 1 INCREMENT BY 1;

CREATE TABLE lango_embeddings (
    id           BIGINT PRIMARY KEY,
    collection   VARCHAR(32) NOT NULL,
    source_id    VARCHAR(255) NOT NULL,
    session_scope VARCHAR(32),
    model        VARCHAR(255) NOT NULL,
    content      ${text} NOT NULL,
    vector       ${bytes} NOT NULL,
    created_at   BIGINT NOT NULL,
    CONSTRAINT uq_lango_embeddings_source UNIQUE (collection, source_id)
);

CREATE INDEX ix_lango_embeddings_session ON lango_embeddings (session_scope);

CREATE SEQUENCE lango_triples_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE lango_triples (
    id          BIGINT PRIMARY KEY,
    subject     VARCHAR(300) NOT NULL,
    predicate   VARCHAR(64) NOT NULL,
    object      VARCHAR(300) NOT NULL,
    metadata    ${text} NOT NULL,
    source      VARCHAR(300),
    created_at  BIGINT NOT NULL,
    CONSTRAINT uq_lango_triples_spo UNIQUE (subject, predicate, object)
);

CREATE INDEX ix_lango_triples_pos ON lango_triples (predicate, object, subject);
CREATE INDEX ix_lango_triples_osp ON lango_triples (object, subject, predicate);
CREATE INDEX ix_lango_triples_source ON lango_triples (source);
