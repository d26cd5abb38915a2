package ai.lango.a2a;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Tasks that answer at once with "echo &lt;text&gt; in &lt;context&gt;", kept in memory; records what was sent. */
final class EchoTasks implements A2aServer.Tasks {

    final List<Message> sent = new ArrayList<>();
    final List<A2aServer.SendOptions> options = new ArrayList<>();
    final Map<String, Task> tasks = new LinkedHashMap<>();

    @Override
    public synchronized Task send(Message message, A2aServer.SendOptions given) throws A2aException {
        if (message.taskId() != null) {
            Task known = get(message.taskId());
            throw new A2aException(A2aErrors.UNSUPPORTED_OPERATION, "task " + known.id() + " is completed");
        }
        sent.add(message);
        options.add(given);
        String context = message.contextId() == null ? UUID.randomUUID().toString() : message.contextId();
        String id = UUID.randomUUID().toString();
        String answer = "echo " + message.text() + " in " + context;
        Task task = new Task(id, context, null, List.of(), List.of(message.in(context, id)))
                .with(new Artifact(TaskRun.ANSWER, TaskRun.ANSWER, List.of(Part.text(answer))))
                .moved(TaskState.COMPLETED, Message.agent(answer, context, id), Instant.parse("2026-01-01T00:00:00Z"));
        tasks.put(id, task);
        return task;
    }

    @Override
    public A2aServer.Subscription stream(Message message, A2aServer.SendOptions given) throws A2aException {
        Task task = send(message, given);
        ConcurrentLinkedQueue<TaskEvent> events = new ConcurrentLinkedQueue<>(List.of(
                new TaskEvent.Snapshot(new Task(task.id(), task.contextId(), new Task.Status(TaskState.SUBMITTED, null, null),
                        List.of(), task.history().subList(0, 1))),
                new TaskEvent.ArtifactUpdate(task.id(), task.contextId(), task.artifacts().get(0), false, true),
                new TaskEvent.StatusUpdate(task.id(), task.contextId(), task.status(), true)));
        return new A2aServer.Subscription() {
            @Override
            public TaskEvent next(Duration wait) {
                return events.poll();
            }

            @Override
            public boolean ended() {
                return events.isEmpty();
            }

            @Override
            public void close() {
                events.clear();
            }
        };
    }

    @Override
    public synchronized Task get(String id) throws A2aException {
        Task task = tasks.get(id);
        if (task == null) {
            throw new A2aException(A2aErrors.TASK_NOT_FOUND, "task " + id + " not found");
        }
        return task;
    }

    @Override
    public synchronized A2aServer.TaskPage list(A2aServer.TaskQuery query) {
        List<Task> all = new ArrayList<>(tasks.values());
        return new A2aServer.TaskPage(all.subList(0, Math.min(all.size(), query.pageSize())),
                all.size() > query.pageSize() ? "next" : "", all.size());
    }

    @Override
    public Task cancel(String id) throws A2aException {
        get(id);
        throw new A2aException(A2aErrors.TASK_NOT_CANCELABLE, "task " + id + " is completed and cannot be canceled");
    }

    @Override
    public A2aServer.Subscription subscribe(String id) throws A2aException {
        get(id);
        throw new A2aException(A2aErrors.UNSUPPORTED_OPERATION, "task " + id + " is completed");
    }
}
