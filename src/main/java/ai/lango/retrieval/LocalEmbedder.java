package ai.lango.retrieval;

import ai.lango.config.LangoSettings;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * all-MiniLM-L6-v2 (quantized ONNX, 384 dimensions) inside the server: the model and its tokenizer
 * come in a Maven artifact, so no network is needed at any time. The runtime lives in Liberty's
 * global library (server.xml), as its native libraries load once per JVM.
 */
public final class LocalEmbedder implements Embedder {

    public static final String MODEL = LangoSettings.Retrieval.LOCAL + "/" + LangoSettings.Retrieval.LOCAL_MODEL;
    /** The DJL tokenizer unpacks its native library here unless told otherwise; the default is the home directory. */
    private static final String DJL_CACHE_DIR = "DJL_CACHE_DIR";

    private final AllMiniLmL6V2QuantizedEmbeddingModel model;

    /**
     * Loads the model (about a second).
     *
     * @param cacheDir where the tokenizer's native library is unpacked, when nothing else says so
     * @param executor runs the parts of one batch in parallel; null for the caller's thread
     */
    public LocalEmbedder(Path cacheDir, Executor executor) {
        if (System.getProperty(DJL_CACHE_DIR) == null && System.getenv(DJL_CACHE_DIR) == null && cacheDir != null) {
            System.setProperty(DJL_CACHE_DIR, cacheDir.toString());
        }
        model = executor == null ? new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run)
                : new AllMiniLmL6V2QuantizedEmbeddingModel(executor);
    }

    @Override
    public String model() {
        return MODEL;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<TextSegment> segments = texts.stream().map(t -> TextSegment.from(t.isBlank() ? "-" : t)).toList();
        List<Embedding> embeddings = model.embedAll(segments).content();
        return embeddings.stream().map(e -> Vectors.normalized(e.vector())).toList();
    }
}
