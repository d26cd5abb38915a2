package ai.lango.adk.artifacts;

import ai.lango.artifact.Artifact;
import ai.lango.artifact.ArtifactStore;
import com.google.genai.types.Blob;
import com.google.genai.types.Part;
import java.nio.charset.StandardCharsets;

/**
 * A genai {@link Part} as an artifact's MIME type and bytes, and back. Inline data is kept as it is
 * (no type: application/octet-stream); a text part is kept as text/plain in UTF-8, and, as ADK's GCS
 * artifact service does, comes back as inline data of that type. Any other part (a function call, a
 * file reference) is not something to keep.
 */
public final class ArtifactParts {

    /** A text part's type once stored. */
    public static final String TEXT = "text/plain";

    /** What a part is stored as. */
    public record Content(String mimeType, byte[] data) {
    }

    private ArtifactParts() {
    }

    /** The type and bytes to store for {@code part}; an IllegalArgumentException for a part that has neither. */
    public static Content content(Part part) {
        if (part == null) {
            throw new IllegalArgumentException("an artifact needs a part to save");
        }
        if (part.inlineData().isPresent()) {
            Blob blob = part.inlineData().get();
            return new Content(blob.mimeType().filter(t -> !t.isBlank()).orElse(ArtifactStore.DEFAULT_MIME_TYPE),
                    blob.data().orElse(new byte[0]));
        }
        if (part.text().isPresent()) {
            return new Content(TEXT, part.text().get().getBytes(StandardCharsets.UTF_8));
        }
        throw new IllegalArgumentException("an artifact is inline data or text; this part is neither");
    }

    /** The stored artifact as a part of inline data. */
    public static Part part(Artifact artifact) {
        return Part.fromBytes(artifact.data(), artifact.mimeType());
    }
}
