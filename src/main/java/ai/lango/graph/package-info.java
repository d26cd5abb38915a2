/**
 * The knowledge graph: subject-predicate-object triples in {@code lango_triples}, made from saved
 * knowledge (the agent's model extracts them, off the request path) and from memory (which
 * observation belongs to which session, follows which, which reflection folds which); the
 * {@code graph_query} and {@code graph_traverse} tools; and Graph RAG, which widens retrieval's hits
 * by their neighbours into {@code ## Graph-Expanded Context}. On with lango.graph.enabled.
 */
package ai.lango.graph;
