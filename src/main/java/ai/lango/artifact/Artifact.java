package ai.lango.artifact;

import java.time.Instant;
import java.util.Objects;

/** One stored version of a session's artifact. */
public record Artifact(String name, int version, String mimeType, byte[] data, Instant createdAt) {

    public Artifact {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mimeType, "mimeType");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Its size in bytes. */
    public long size() {
        return data.length;
    }

    /** Name, version, type and size: never the bytes (a log line, a failed assertion). */
    @Override
    public String toString() {
        return "Artifact[" + name + " v" + version + ", " + mimeType + ", " + data.length + " bytes, " + createdAt + "]";
    }
}
