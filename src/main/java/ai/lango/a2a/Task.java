package ai.lango.a2a;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An A2A task: the unit of work an A2A caller starts with a message, with its status (state, the agent's
 * latest message, when), its artifacts and the messages exchanged in it.
 */
public record Task(String id, String contextId, Status status, List<Artifact> artifacts, List<Message> history) {

    /** Where a task stands: its state, what the agent said with it, and since when. */
    public record Status(TaskState state, Message message, Instant timestamp) {
    }

    public Task {
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        history = history == null ? List.of() : List.copyOf(history);
    }

    public TaskState state() {
        return status == null ? TaskState.UNKNOWN : status.state();
    }

    /** This task in a new status; the status message, if any, joins the history. */
    public Task moved(TaskState state, Message message, Instant at) {
        List<Message> messages = new ArrayList<>(history);
        if (message != null) {
            messages.add(message);
        }
        return new Task(id, contextId, new Status(state, message, at), artifacts, messages);
    }

    /** This task with one more message in its history (the caller's). */
    public Task adding(Message message) {
        List<Message> messages = new ArrayList<>(history);
        messages.add(message);
        return new Task(id, contextId, status, artifacts, messages);
    }

    /** This task with an artifact, replacing one of the same id. */
    public Task with(Artifact artifact) {
        List<Artifact> all = new ArrayList<>(artifacts);
        all.removeIf(a -> a.artifactId().equals(artifact.artifactId()));
        all.add(artifact);
        return new Task(id, contextId, status, all, history);
    }

    /** The last {@code length} messages of the history (all when null; none for 0). */
    public Task withHistory(Integer length) {
        if (length == null || length >= history.size()) {
            return this;
        }
        return new Task(id, contextId, status, artifacts, history.subList(history.size() - Math.max(0, length), history.size()));
    }

    /** The same task without its artifacts. */
    public Task withoutArtifacts() {
        return new Task(id, contextId, status, List.of(), history);
    }

    /** The artifacts' text, one part per line. */
    public String artifactText() {
        return artifacts.stream().map(Artifact::plainText).collect(Collectors.joining("\n"));
    }

    /** The status message's text, or "". */
    public String statusText() {
        return status == null || status.message() == null ? "" : status.message().plainText();
    }
}
