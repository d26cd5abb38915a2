package ai.lango.tool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a tool's result names an artifact it saved (a screenshot): the one shape, written by the tool
 * and read by the agent layer (which records it in ADK's artifactDelta) and the chat page (which
 * shows an image). The model sees only these keys, never the bytes:
 * <pre>{"artifact": "screenshot-1.png", "version": 0, "mimeType": "image/png", "bytes": 48213}</pre>
 * A tool puts them at the top level of its result, beside its own keys.
 */
public final class ToolArtifacts {

    public static final String ARTIFACT = "artifact";
    public static final String VERSION = "version";
    public static final String MIME_TYPE = "mimeType";
    public static final String BYTES = "bytes";

    private ToolArtifacts() {
    }

    /** The reference to version {@code version} of artifact {@code name}, in its key order. */
    public static Map<String, Object> reference(String name, int version, String mimeType, long bytes) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an artifact reference needs the artifact's name");
        }
        if (version < 0) {
            throw new IllegalArgumentException("an artifact's version is 0 or more, not " + version);
        }
        Map<String, Object> reference = new LinkedHashMap<>();
        reference.put(ARTIFACT, name);
        reference.put(VERSION, version);
        reference.put(MIME_TYPE, Objects.requireNonNull(mimeType, "mimeType"));
        reference.put(BYTES, bytes);
        return Collections.unmodifiableMap(reference);
    }

    /**
     * The artifact a tool's result refers to, as name → version; empty when the result holds no
     * reference (no non-blank "artifact" text, or no whole, non-negative "version" number).
     */
    public static Optional<Map.Entry<String, Integer>> of(Map<String, ?> result) {
        if (result == null || !(result.get(ARTIFACT) instanceof String name) || name.isBlank()
                || !(result.get(VERSION) instanceof Number version)) {
            return Optional.empty();
        }
        double value = version.doubleValue();
        if (value < 0 || value > Integer.MAX_VALUE || value != Math.rint(value)) {
            return Optional.empty();
        }
        return Optional.of(Map.entry(name, version.intValue()));
    }
}
