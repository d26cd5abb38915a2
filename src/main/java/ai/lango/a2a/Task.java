package ai.lango.a2a;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An A2A task: the unit of work an A2A caller starts with a message, with its status (state, the agent's
 * latest message, when), its artifacts, the messages exchanged in it, and the states it was in before
 * (each with when it began; the first one's is when the task began). A task that changes state without end
 * (asking for input again and again) keeps its first state and its latest: at most {@value #MAX_STATES}.
 */
public record Task(String id, String contextId, Status status, List<Artifact> artifacts, List<Message> history,
                   List<Status> earlierStates) {

    /** The most states {@link #stateHistory()} holds, the current one included. */
    public static final int MAX_STATES = 32;

    /** Where a task stands: its state, what the agent said with it, and since when. */
    public record Status(TaskState state, Message message, Instant timestamp) {
    }

    public Task {
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        history = history == null ? List.of() : List.copyOf(history);
        earlierStates = earlierStates == null ? List.of() : bounded(earlierStates);
    }

    /** The first state and the latest ones, room left for the current one. */
    private static List<Status> bounded(List<Status> states) {
        int room = MAX_STATES - 1;
        if (states.size() <= room) {
            return List.copyOf(states);
        }
        List<Status> kept = new ArrayList<>(room);
        kept.add(states.get(0));
        kept.addAll(states.subList(states.size() - (room - 1), states.size()));
        return List.copyOf(kept);
    }

    /** A task as it begins, or as a peer shows it (with no states before this one). */
    public Task(String id, String contextId, Status status, List<Artifact> artifacts, List<Message> history) {
        this(id, contextId, status, artifacts, history, List.of());
    }

    /** Every state the task has been in, oldest first, the current one last (messages left out: they are in the history). */
    public List<Status> stateHistory() {
        List<Status> all = new ArrayList<>(earlierStates);
        if (status != null) {
            all.add(new Status(status.state(), null, status.timestamp()));
        }
        return all;
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
        return new Task(id, contextId, new Status(state, message, at), artifacts, messages, stateHistory());
    }

    /** This task with one more message in its history (the caller's). */
    public Task adding(Message message) {
        List<Message> messages = new ArrayList<>(history);
        messages.add(message);
        return new Task(id, contextId, status, artifacts, messages, earlierStates);
    }

    /** This task with an artifact, replacing one of the same id. */
    public Task with(Artifact artifact) {
        List<Artifact> all = new ArrayList<>(artifacts);
        all.removeIf(a -> a.artifactId().equals(artifact.artifactId()));
        all.add(artifact);
        return new Task(id, contextId, status, all, history, earlierStates);
    }

    /** The last {@code length} messages of the history (all when null; none for 0). */
    public Task withHistory(Integer length) {
        if (length == null || length >= history.size()) {
            return this;
        }
        return new Task(id, contextId, status, artifacts, history.subList(history.size() - Math.max(0, length), history.size()),
                earlierStates);
    }

    /** The same task without its artifacts. */
    public Task withoutArtifacts() {
        return new Task(id, contextId, status, List.of(), history, earlierStates);
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
