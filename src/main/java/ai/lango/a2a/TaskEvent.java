package ai.lango.a2a;

/** What a task's stream carries: the task, a new status, a piece of an artifact, each as the version writes it. */
public sealed interface TaskEvent {

    String taskId();

    /** The whole task as it stands (a stream's first event). */
    record Snapshot(Task task) implements TaskEvent {
        @Override
        public String taskId() {
            return task.id();
        }
    }

    /** The task's new status; {@code last}: the stream ends after it (a final or interrupted state). */
    record StatusUpdate(String taskId, String contextId, Task.Status status, boolean last) implements TaskEvent {
    }

    /**
     * A piece of an artifact: appended to what came before under its id ({@code append}), or replacing it;
     * {@code lastChunk}: the artifact is whole.
     */
    record ArtifactUpdate(String taskId, String contextId, Artifact artifact, boolean append, boolean lastChunk)
            implements TaskEvent {
    }
}
