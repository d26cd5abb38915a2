package ai.lango.a2a;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An A2A task, what an agent may answer instead of a message: {@code {"id":…,"contextId":…,
 * "status":{"state":…,"message":{…}},"artifacts":[{"artifactId":…,"parts":[…]}],"kind":"task"}}.
 * Lango's client reads them; its server creates one only when a turn stops for input (a tool call
 * waits for a person's approval): state {@code input-required}, the next message on the context
 * continues it.
 */
public record Task(String id, String contextId, Status status, List<Artifact> artifacts, List<Message> history,
                   String kind) {

    /** The states after which a task changes no more. */
    public static final Set<String> FINAL_STATES = Set.of("completed", "canceled", "failed", "rejected", "unknown");
    /** The final states that mean the work was not done. */
    public static final Set<String> FAILED_STATES = Set.of("canceled", "failed", "rejected");

    public Task {
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        history = history == null ? List.of() : List.copyOf(history);
    }

    /** The state of a task that waits for the caller's next message. */
    public static final String INPUT_REQUIRED = "input-required";

    /** A task waiting for input in {@code contextId}, {@code text} saying what it waits for. */
    public static Task inputRequired(String text, String contextId) {
        return new Task(java.util.UUID.randomUUID().toString(), contextId, new Status(INPUT_REQUIRED,
                Message.agent(text, contextId), java.time.Instant.now().toString()), List.of(), List.of(), A2aProtocol.KIND_TASK);
    }

    /** {@code {"state":"completed","message":{…},"timestamp":…}}. */
    public record Status(String state, Message message, String timestamp) {
    }

    /** An output of a task: {@code {"artifactId":…,"name":…,"parts":[…]}}. */
    public record Artifact(String artifactId, String name, String description, List<Part> parts) {

        public Artifact {
            parts = parts == null ? List.of() : List.copyOf(parts);
        }
    }

    public String state() {
        return status == null || status.state() == null ? "unknown" : status.state();
    }

    /** Still running: submitted or working (input-required and auth-required wait for the caller). */
    public boolean running() {
        return "submitted".equals(state()) || "working".equals(state());
    }

    /** The artifacts' text, one part per line. */
    String artifactText() {
        return artifacts.stream().flatMap(a -> a.parts().stream()).map(Part::asPlainText).filter(Objects::nonNull)
                .collect(Collectors.joining("\n"));
    }

    /** The status message's text, or "". */
    String statusText() {
        return status == null || status.message() == null ? "" : status.message().plainText();
    }
}
