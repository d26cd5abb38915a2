package ai.lango.a2a;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A task while a turn works on it, on the server that runs the turn: its state as it moves, stored at
 * every change of state ({@code store}; not per chunk), and its events told to whoever streams it. The
 * answer is the artifact {@value #ANSWER}: streamed as chunks while the model writes, then replaced by
 * the whole answer once the turn ends, so what a stream built equals what GetTask returns.
 */
public final class TaskRun {

    /** The id of the artifact that holds the agent's answer. */
    public static final String ANSWER = "answer";

    private final Consumer<Task> store;
    private final List<Feed> feeds = new CopyOnWriteArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Task task;
    private boolean chunked;

    public TaskRun(Task task, Consumer<Task> store) {
        this.task = task;
        this.store = store;
    }

    public synchronized Task current() {
        return task;
    }

    /**
     * The turn started or goes on: working, with what it does now when given. A note is told, never kept: a
     * task already working stays as it is (its state history holds states, not every progress report).
     */
    public void working(String doing) {
        Message note = doing == null ? null : Message.agent(doing, task.contextId(), task.id());
        Instant now = Instant.now();
        TaskEvent event;
        synchronized (this) {
            if (task.state() != TaskState.WORKING) {
                // from submitted it still runs, as stored; only a task that waited is written again
                boolean stored = !task.state().running();
                task = task.moved(TaskState.WORKING, null, now);
                if (stored) {
                    store.accept(task);
                }
            }
            event = new TaskEvent.StatusUpdate(task.id(), task.contextId(), new Task.Status(TaskState.WORKING, note, now), false);
        }
        tell(event);
    }

    /** A piece of the answer as the model writes it. */
    public void chunk(String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        TaskEvent event;
        synchronized (this) {
            event = new TaskEvent.ArtifactUpdate(task.id(), task.contextId(), new Artifact(ANSWER, ANSWER,
                    List.of(Part.text(text))), chunked, false);
            chunked = true;
        }
        tell(event);
    }

    /** The turn ended with {@code answer}, and these further artifacts (files the client accepts). */
    public void completed(String answer, List<Artifact> files) {
        Task done;
        Artifact whole = new Artifact(ANSWER, ANSWER, List.of(Part.text(answer == null ? "" : answer)));
        synchronized (this) {
            Task with = task.with(whole);
            for (Artifact file : files) {
                with = with.with(file);
            }
            done = with.moved(TaskState.COMPLETED, Message.agent(answer == null ? "" : answer, task.contextId(), task.id()),
                    Instant.now());
            task = done;
        }
        store.accept(done);
        tell(new TaskEvent.ArtifactUpdate(done.id(), done.contextId(), whole, false, true));
        for (Artifact file : files) {
            tell(new TaskEvent.ArtifactUpdate(done.id(), done.contextId(), file, false, true));
        }
        end(done);
    }

    /** The turn stopped for the caller's input: the question and what it is about. */
    public void inputRequired(Message question) {
        end(stop(TaskState.INPUT_REQUIRED, question));
    }

    public void failed(String reason) {
        end(stop(TaskState.FAILED, Message.agent(reason, task.contextId(), task.id())));
    }

    public void canceled(String reason) {
        end(stop(TaskState.CANCELED, Message.agent(reason, task.contextId(), task.id())));
    }

    private Task stop(TaskState state, Message message) {
        Task moved;
        synchronized (this) {
            moved = task.moved(state, message, Instant.now());
            task = moved;
        }
        store.accept(moved);
        return moved;
    }

    private void end(Task ended) {
        tell(new TaskEvent.StatusUpdate(ended.id(), ended.contextId(), ended.status(), true));
        stopped.countDown();
    }

    /** Whether the turn has stopped (a final state or one that waits for the caller). */
    public boolean stopped() {
        return stopped.getCount() == 0;
    }

    /** Waits until the turn stops or {@code wait} passes; the task as it stands then. */
    public Task await(Duration wait) throws InterruptedException {
        stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        return current();
    }

    /** The task's events from now: the task first, then every update, until it stops. */
    public A2aServer.Subscription subscribe() {
        Feed feed = new Feed();
        synchronized (this) {
            feed.queue.add(new TaskEvent.Snapshot(task));
            if (stopped()) {
                feed.queue.add(new TaskEvent.StatusUpdate(task.id(), task.contextId(), task.status(), true));
            } else {
                feeds.add(feed);
            }
        }
        return feed;
    }

    private void tell(TaskEvent event) {
        feeds.forEach(feed -> feed.queue.add(event));
        if (event instanceof TaskEvent.StatusUpdate update && update.last()) {
            feeds.clear();
        }
    }

    /** One subscriber's queue of events; it ends with the event marked last. */
    private final class Feed implements A2aServer.Subscription {
        private final LinkedBlockingQueue<TaskEvent> queue = new LinkedBlockingQueue<>();
        private volatile boolean ended;

        @Override
        public TaskEvent next(Duration wait) throws InterruptedException {
            if (ended) {
                return null;
            }
            TaskEvent event = queue.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (event instanceof TaskEvent.StatusUpdate update && update.last()) {
                ended = true;
            }
            return event;
        }

        @Override
        public boolean ended() {
            return ended;
        }

        @Override
        public void close() {
            ended = true;
            feeds.remove(this);
        }
    }
}
