package ai.lango.retrieval;

import java.util.List;

/** Turns texts into vectors of unit length, so that their dot product is their cosine similarity. */
public interface Embedder {

    /** The provider and model, e.g. "local/all-minilm-l6-v2-q": a vector computed by another is computed again. */
    String model();

    /** One vector per text, in order. */
    List<float[]> embed(List<String> texts);
}
