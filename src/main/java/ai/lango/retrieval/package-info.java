/**
 * Retrieval: embeddings, the vector index in the database and hybrid search over it.
 *
 * <p>Every retrievable row (knowledge, learnings, observations, reflections) becomes a
 * {@link ai.lango.retrieval.Document}; its owner hands it to {@link ai.lango.retrieval.Retrieval},
 * which embeds it off the request path and stores the vector beside its text in
 * {@code lango_embeddings}. Search fuses vector similarity with keyword relevance (BM25) by
 * reciprocal rank fusion, over an in-memory copy of the table that each server keeps current.
 * Owners also list their rows as a {@link ai.lango.retrieval.Corpus}, so vectors that are missing,
 * stale (another model) or orphaned are put right at start.
 */
package ai.lango.retrieval;
