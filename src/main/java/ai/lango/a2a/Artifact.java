package ai.lango.a2a;

import java.util.List;
import java.util.stream.Collectors;

/** An output of a task (Lango's: the answer, and files the agent wrote when the client accepts them). */
public record Artifact(String artifactId, String name, List<Part> parts) {

    public Artifact {
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    public String plainText() {
        return parts.stream().map(Part::asPlainText).collect(Collectors.joining("\n"));
    }
}
