package ai.lango.retrieval;

/** A row of lango_embeddings: its id, the document, the model that embedded it, the vector, when it was stored. */
record StoredVector(long id, Document document, String model, float[] vector, long createdAt) {
}
