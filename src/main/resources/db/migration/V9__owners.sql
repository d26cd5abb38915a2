-- Knowledge and learnings belong to a user: owner is the user's id, or '' for what every user
-- shares (written by an administrator, or promoted by one). Rows from before this version were
-- everyone's, so they become shared: no user sees more than before.
--
-- A knowledge key and a learning's (trigger, error pattern) are unique per owner. Vectors and graph
-- triples carry the scope of whose they are — a session's (observations, reflections), an owner's
-- (ai.lango.turn.SessionRef.ownerScope) or '' when shared — so that searches and graph queries see
-- only the caller's own and what is shared. Memory triples (their source is "session:<scope>") take
-- their session's scope.

ALTER TABLE lango_knowledge ADD COLUMN owner VARCHAR(255) DEFAULT '' NOT NULL;
ALTER TABLE lango_knowledge DROP CONSTRAINT uq_lango_knowledge_key;
ALTER TABLE lango_knowledge ADD CONSTRAINT uq_lango_knowledge_owner_key UNIQUE (owner, entry_key);

ALTER TABLE lango_learnings ADD COLUMN owner VARCHAR(255) DEFAULT '' NOT NULL;
ALTER TABLE lango_learnings DROP CONSTRAINT uq_lango_learnings_trigger_pattern;
ALTER TABLE lango_learnings ADD CONSTRAINT uq_lango_learnings_owner_trigger_pattern UNIQUE (owner, trigger_text, error_pattern);

ALTER TABLE lango_embeddings ADD COLUMN scope VARCHAR(32) DEFAULT '' NOT NULL;
UPDATE lango_embeddings SET scope = session_scope WHERE session_scope IS NOT NULL;
DROP INDEX ix_lango_embeddings_session;
ALTER TABLE lango_embeddings DROP CONSTRAINT uq_lango_embeddings_source;
ALTER TABLE lango_embeddings DROP COLUMN session_scope;
ALTER TABLE lango_embeddings ADD CONSTRAINT uq_lango_embeddings_source UNIQUE (collection, scope, source_id);
CREATE INDEX ix_lango_embeddings_scope ON lango_embeddings (scope);

ALTER TABLE lango_triples ADD COLUMN scope VARCHAR(32) DEFAULT '' NOT NULL;
UPDATE lango_triples SET scope = SUBSTRING(source FROM 9) WHERE source LIKE 'session:%';
ALTER TABLE lango_triples DROP CONSTRAINT uq_lango_triples_spo;
ALTER TABLE lango_triples ADD CONSTRAINT uq_lango_triples_spo UNIQUE (subject, predicate, object, scope);
