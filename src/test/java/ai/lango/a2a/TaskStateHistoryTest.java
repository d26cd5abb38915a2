package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A task's state history holds its states, not every progress note, and stays bounded however long the task
 * goes on: a caller whose task reports progress thousands of times (an MCP server's long call) or asks for
 * input again and again does not grow it without end.
 */
class TaskStateHistoryTest {

    private static Task submitted() {
        return new Task("t1", "c1", new Task.Status(TaskState.SUBMITTED, null, Instant.parse("2025-01-01T00:00:00Z")),
                List.of(), List.of(Message.user("hello", "c1").in("c1", "t1")));
    }

    @Test
    void progressNotesOfAWorkingTaskAddNoStates() {
        List<Task> stored = new ArrayList<>();
        List<TaskEvent> told = new ArrayList<>();
        TaskRun run = new TaskRun(submitted(), stored::add);
        try (A2aServer.Subscription events = run.subscribe()) {
            run.working(null);
            for (int i = 0; i < 10_000; i++) {
                run.working("tool: step " + i);
            }
            run.completed("done", List.of());
            TaskEvent event;
            while ((event = events.next(java.time.Duration.ZERO)) != null) {
                told.add(event);
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }

        List<TaskState> states = run.current().stateHistory().stream().map(Task.Status::state).toList();
        assertEquals(3, states.size(), states.size() + " states");
        assertEquals(List.of(TaskState.SUBMITTED, TaskState.WORKING, TaskState.COMPLETED), states);
        assertEquals(1, stored.size(), "stored once, when it completed: " + stored.size());
        long notes = told.stream().filter(e -> e instanceof TaskEvent.StatusUpdate u && u.status().message() != null
                && u.status().message().plainText().startsWith("tool: step ")).count();
        assertEquals(10_000, notes, "every note is still told to whoever streams the task");
    }

    @Test
    void aTaskThatMovesWithoutEndKeepsItsFirstStateAndItsLatest() {
        Task task = submitted();
        Instant at = Instant.parse("2025-01-01T00:00:01Z");
        for (int i = 0; i < 5_000; i++) {
            task = task.moved(i % 2 == 0 ? TaskState.WORKING : TaskState.INPUT_REQUIRED, null, at.plusSeconds(i));
        }
        task = task.moved(TaskState.COMPLETED, null, at.plusSeconds(5_000));

        List<Task.Status> states = task.stateHistory();
        assertTrue(states.size() <= 64, states.size() + " states");
        assertEquals(TaskState.SUBMITTED, states.get(0).state(), "the first says when the task began");
        assertEquals(Instant.parse("2025-01-01T00:00:00Z"), states.get(0).timestamp());
        assertEquals(TaskState.COMPLETED, states.get(states.size() - 1).state(), "the last is the current one");
        assertEquals(TaskState.INPUT_REQUIRED, states.get(states.size() - 2).state());
        assertEquals(at.plusSeconds(4_999), states.get(states.size() - 2).timestamp());
    }

    @Test
    void aStoredTaskWithALongerHistoryIsReadBackBounded() {
        List<Task.Status> earlier = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            earlier.add(new Task.Status(i == 0 ? TaskState.SUBMITTED : TaskState.WORKING, null, Instant.EPOCH.plusSeconds(i)));
        }
        Task stored = new Task("t1", "c1", new Task.Status(TaskState.COMPLETED, null, Instant.EPOCH.plusSeconds(1_000)),
                List.of(), List.of(), earlier);

        Task read = A2aWire.readTask(A2aWire.task(A2aVersion.V1_0, stored, null));
        assertTrue(read.stateHistory().size() <= 64, read.stateHistory().size() + " states");
        assertEquals(Instant.EPOCH, read.stateHistory().get(0).timestamp());
        assertEquals(TaskState.COMPLETED, read.state());
    }
}
