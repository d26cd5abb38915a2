package ai.lango.turns;

import ai.lango.a2a.A2aErrors;
import ai.lango.a2a.A2aException;
import ai.lango.a2a.A2aServer;
import ai.lango.a2a.A2aTasksStore;
import ai.lango.a2a.Artifact;
import ai.lango.a2a.Message;
import ai.lango.a2a.Part;
import ai.lango.a2a.Task;
import ai.lango.a2a.TaskEvent;
import ai.lango.a2a.TaskRun;
import ai.lango.a2a.TaskState;
import ai.lango.approval.Approval;
import ai.lango.approval.ApprovalResolved;
import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.Audience;
import ai.lango.masking.SecretMask;
import ai.lango.net.jsonrpc.JsonRpc;
import ai.lango.security.Identity;
import ai.lango.tool.ToolException;
import ai.lango.tool.Workspace;
import ai.lango.turn.MessageTooLargeException;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnAbortedException;
import ai.lango.turn.TurnEvent;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The tasks A2A callers start, on every server: each a turn of the root agent in the session
 * {@code a2a-<contextId>} of the caller's user, stored in lango_a2a_tasks at every change of state. A call
 * that waits for approval leaves its task in input-required (the question, and a data part naming the
 * approval); the caller continues the same task with its answer, even after a restart. While a turn runs,
 * its server keeps a heartbeat on the task (a task whose server went silent failed with it) and looks for
 * a cancel asked on another server.
 */
@ApplicationScoped
public class A2aTasks {

    /** The sessions of A2A contexts: a context's conversation is its caller's session "a2a-" + the context id. */
    public static final String SESSION_PREFIX = "a2a-";
    /** The edge of the turns of tasks, which know them by the task's id. */
    static final String EDGE = "a2a";


    private static final Logger LOG = MaskedLogs.of(A2aTasks.class);

    /** How often a server says its tasks live, and how long a silent one's tasks are still taken to run. */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    static final Duration SILENT = Duration.ofSeconds(30);
    /** How long a cancel waits for the turn to stop. */
    static final Duration CANCEL_WAIT = Duration.ofSeconds(10);
    /** A file the agent wrote is returned as an artifact up to this size. */
    static final long MAX_FILE_BYTES = 1024 * 1024;

    @Inject
    Turns turns;


    @Inject
    Approvals approvals;

    @Inject
    A2aTasksStore store;

    @Inject
    LangoSettings settings;

    /** The turns of tasks: a task whose turn a crash cut off waits for the turn to be resumed. */
    @Inject
    ai.lango.session.TurnRows turnRows;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /** This server, as the runner of its tasks. */
    private final String server = "lango-" + UUID.randomUUID();
    /** The tasks whose turns run on this server. */
    private final Map<String, Local> running = new ConcurrentHashMap<>();
    private ScheduledFuture<?> sweep;
    private volatile long lastHeartbeat;

    /** A task at work here: its run, and who and where. */
    private record Local(TaskRun run, String userId, String sessionKey) {
    }

    @PostConstruct
    void start() {
        sweep = scheduler.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    /** The tasks of {@code userId}, as {@code caller} may use them. */
    public A2aServer.Tasks of(Identity caller, String userId) {
        return new CallerTasks(caller, userId);
    }

    private final class CallerTasks implements A2aServer.Tasks {
        private final Identity caller;
        private final String userId;

        CallerTasks(Identity caller, String userId) {
            this.caller = caller;
            this.userId = userId;
        }

        @Override
        public Task send(Message message, A2aServer.SendOptions options) throws A2aException {
            TaskRun run = begin(caller, userId, message, options, false);
            if (!options.blocking()) {
                return run.current();
            }
            try {
                return run.await(settings.agent().requestTimeout().multipliedBy(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return run.current();
            }
        }

        @Override
        public A2aServer.Subscription stream(Message message, A2aServer.SendOptions options) throws A2aException {
            A2aServer.Subscription[] feed = new A2aServer.Subscription[1];
            // subscribed before the turn starts, so no event is missed
            begin(caller, userId, message, options, true, run -> feed[0] = run.subscribe());
            return feed[0];
        }

        @Override
        public Task get(String id) throws A2aException {
            return current(found(id, userId)).task();
        }

        @Override
        public A2aServer.TaskPage list(A2aServer.TaskQuery query) throws A2aException {
            A2aTasksStore.Page page;
            try {
                page = store.page(userId, query.contextId(), query.state(), query.statusAfter(), query.pageToken(),
                        query.pageSize(), A2aServer.MAX_PAGE_BYTES);
            } catch (IllegalArgumentException e) {
                throw new A2aException(JsonRpc.INVALID_PARAMS, "params." + e.getMessage());
            }
            List<A2aTasksStore.Stored> shown = page.tasks();
            return new A2aServer.TaskPage(shown.stream().map(s -> current(s).task()).toList(),
                    page.more() && !shown.isEmpty() ? A2aTasksStore.token(shown.get(shown.size() - 1)) : "",
                    store.count(userId, query.contextId(), query.state(), query.statusAfter()));
        }

        @Override
        public Task cancel(String id) throws A2aException {
            return A2aTasks.this.cancel(found(id, userId));
        }

        @Override
        public A2aServer.Subscription subscribe(String id) throws A2aException {
            A2aTasksStore.Stored stored = current(found(id, userId));
            if (stored.task().state().terminal()) {
                throw new A2aException(A2aErrors.UNSUPPORTED_OPERATION, "task " + id + " is "
                        + stored.task().state().wire(ai.lango.a2a.A2aVersion.V0_3) + " and has nothing more to stream");
            }
            Local local = running.get(id);
            return local != null ? local.run().subscribe() : new Polled(stored.task(), userId);
        }
    }

    private TaskRun begin(Identity caller, String userId, Message message, A2aServer.SendOptions options, boolean streaming)
            throws A2aException {
        return begin(caller, userId, message, options, streaming, run -> { });
    }

    /**
     * Starts the turn of a new task, or continues the task the message names; {@code ready} sees the run
     * before its turn starts.
     */
    private TaskRun begin(Identity caller, String userId, Message message, A2aServer.SendOptions options, boolean streaming,
                          Consumer<TaskRun> ready) throws A2aException {
        if (message.taskId() != null && !message.taskId().isBlank()) {
            return continueTask(caller, userId, found(message.taskId(), userId), message, options, streaming, ready);
        }
        String contextId = message.contextId() == null ? UUID.randomUUID().toString() : message.contextId();
        String sessionKey = SESSION_PREFIX + contextId;
        // A message on a context whose task waits for an answer, saying only "approve" or "deny", answers it (0.3 callers
        // that continue by context).
        Optional<Boolean> verdict = verdict(message);
        if (verdict.isPresent()) {
            for (Approval waiting : approvals.pendingIn(SessionRef.of(userId, sessionKey).scope())) {
                Optional<A2aTasksStore.Stored> task = store.waitingFor(waiting.id()).filter(t -> t.userId().equals(userId));
                if (task.isPresent()) {
                    return continueTask(caller, userId, task.get(), message, options, streaming, ready);
                }
            }
        }
        String taskId = UUID.randomUUID().toString();
        Message asked = message.in(contextId, taskId);
        Task task = new Task(taskId, contextId, new Task.Status(TaskState.SUBMITTED, null, Instant.now()), List.of(),
                List.of(asked));
        TaskRun run = new TaskRun(task, saved -> save(saved));
        Listener listener = new Listener(run, options, new Audience(userId, caller.administersAs(userId)));
        CompletableFuture<String> turn;
        try {
            turn = turns.start(caller, userId, sessionKey, asked.plainText(), streaming, Turns.Listener.of(listener).from(EDGE, taskId)
                    .onceAdmitted(() -> {
                        running.put(taskId, new Local(run, userId, sessionKey));
                        ready.accept(run);
                        run.working(null);
                    }));
        } catch (TurnRefused refused) {
            throw new A2aException(refused.code() + ": " + refused.getMessage());
        } catch (RuntimeException e) {
            turn = CompletableFuture.failedFuture(e);
        }
        // The task is stored once its turn has begun: a message the turn refused leaves no task, as it leaves no session
        // event. Nothing of the task is written before (a working task is written when it stops, in finish).
        Optional<A2aException> refused = refusal(turn);
        if (refused.isPresent()) {
            running.remove(taskId);
            throw refused.get();
        }
        try {
            store.insert(new A2aTasksStore.Stored(task, userId, sessionKey, null, server, Instant.now(), false),
                    settings.a2a().tasksPerUser());
        } finally {
            finish(turn, run, listener, userId);
        }
        return run;
    }

    /**
     * The caller's error when the turn refused its message before it began (a message too large for the model's
     * history budget), as the other edges answer it: {@code -32602} naming the code.
     */
    private static Optional<A2aException> refusal(CompletableFuture<String> turn) {
        if (!turn.isCompletedExceptionally()) {
            return Optional.empty();
        }
        Throwable failure;
        try {
            turn.getNow(null);
            return Optional.empty();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            failure = e.getCause() == null ? e : e.getCause();
        }
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof MessageTooLargeException) {
                return Optional.of(new A2aException(JsonRpc.INVALID_PARAMS,
                        MessageTooLargeException.CODE + ": " + cause.getMessage()));
            }
        }
        return Optional.empty();
    }

    /** The caller answers the task's question (approve or deny), and its turn goes on. */
    private TaskRun continueTask(Identity caller, String userId, A2aTasksStore.Stored stored, Message message,
                                 A2aServer.SendOptions options, boolean streaming, Consumer<TaskRun> ready) throws A2aException {
        stored = current(stored);
        Task task = stored.task();
        if (task.state().terminal()) {
            throw new A2aException(A2aErrors.UNSUPPORTED_OPERATION, "task " + task.id() + " is "
                    + task.state().wire(ai.lango.a2a.A2aVersion.V0_3) + " and takes no more messages; start a new task"
                    + " (in the same context to go on with the conversation)");
        }
        if (task.state().running()) {
            throw new A2aException(A2aErrors.UNSUPPORTED_OPERATION, "task " + task.id() + " is still working and"
                    + " asks for nothing; wait for it (GetTask, SubscribeToTask) or cancel it");
        }
        Optional<Boolean> verdict = verdict(message);
        if (verdict.isEmpty() || stored.approvalId() == null) {
            throw new A2aException(JsonRpc.INVALID_PARAMS, "task " + task.id() + " waits for an answer to approval "
                    + stored.approvalId() + ": send the text \"approve\" or \"deny\", or a data part {\"approved\": true|false}");
        }
        Message answer = message.in(task.contextId(), task.id());
        Task working = task.adding(answer).moved(TaskState.WORKING, null, Instant.now());
        TaskRun run = new TaskRun(working, saved -> save(saved));
        Listener listener = new Listener(run, options, new Audience(userId, caller.administersAs(userId)));
        String sessionKey = stored.sessionKey();
        boolean approved = verdict.get();
        Turns.Continuation continuation = new Turns.Continuation() {
            @Override
            public boolean claim() {
                // The task is claimed once its turn is let in and before the approval is decided: of two answers (or an
                // answer and the timeout), one counts.
                return store.move(working, TaskState.INPUT_REQUIRED, server);
            }

            @Override
            public Turns.Listener listener() {
                running.put(task.id(), new Local(run, userId, sessionKey));
                ready.accept(run);
                run.working(approved ? "approved; the call runs" : "denied; the call does not run");
                return Turns.Listener.of(listener);
            }
        };
        CompletableFuture<String> turn;
        try {
            turn = turns.answer(caller, stored.approvalId(), approved, streaming, Optional.of(continuation));
        } catch (TurnRefused refused) {
            A2aTasksStore.Stored now = found(task.id(), userId);
            if (refused.status() == 409 && now.task().state() != TaskState.INPUT_REQUIRED) {
                return continueTask(caller, userId, now, message, options, streaming, ready); // answered another way
            }
            if (refused.status() == 409 || refused.status() == 404) {
                // decided another way already (the timeout, an answer on another edge): the task says so
                ready.accept(run);
                run.failed("The request for approval " + stored.approvalId() + " was " + approvals.get(stored.approvalId())
                        .map(a -> a.decision().wire()).orElse("unknown") + " already; nothing ran.");
                return run;
            }
            throw new A2aException(refused.code() + ": " + refused.getMessage()); // not let in: the request still waits
        }
        finish(turn, run, listener, userId);
        return run;
    }

    /** When the turn ends: the task completes, waits for input, fails or is canceled. */
    private void finish(CompletableFuture<String> turn, TaskRun run, Listener listener, String userId) {
        turn.whenComplete((answer, failure) -> {
            try {
                if (failure == null && !listener.asked.isEmpty()) {
                    run.inputRequired(question(run.current(), listener.asked, answer, listener.reader));
                } else if (failure == null) {
                    run.completed(answer, listener.files(userId));
                } else {
                    Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure;
                    if (aborted(cause)) {
                        run.canceled("The task was canceled; what it did so far stays in its context.");
                    } else {
                        run.failed(String.valueOf(cause.getMessage()));
                    }
                }
            } catch (RuntimeException e) {
                LOG.warning(() -> "the A2A task " + run.current().id() + " could not be stored as it ended: " + e.getMessage());
            } finally {
                running.remove(run.current().id());
            }
        });
    }

    /** Whether a turn ended because it was stopped (a cancel), whatever wraps that. */
    private static boolean aborted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TurnAbortedException) {
                return true;
            }
        }
        return false;
    }

    /** Writes the task as it stands; an input-required task with the approval it waits for. */
    private void save(Task task) {
        String approval = null;
        if (task.state() == TaskState.INPUT_REQUIRED && task.status().message() != null) {
            approval = task.status().message().parts().stream().filter(Part::isData)
                    .map(p -> p.data().path("approvalId").asText(null)).filter(a -> a != null).findFirst().orElse(null);
        }
        store.update(task, approval, task.state().running() ? server : null);
    }

    /** What the task asks its caller: the calls that wait (masked, as the approval card shows them) and how to answer. */
    static Message question(Task task, List<TurnEvent.ApprovalRequest> asked, String answer, Audience reader) {
        StringBuilder text = new StringBuilder(answer == null || answer.isBlank() ? "" : answer.strip() + "\n\n");
        for (TurnEvent.ApprovalRequest request : asked) {
            text.append("Approval needed: ").append(request.tool()).append(' ')
                    .append(ai.lango.a2a.A2aJson.MAPPER.valueToTree(request.args()).toString()).append(" (").append(request.safety())
                    .append(", approval ").append(request.approvalId()).append(", until ").append(request.expiresAt())
                    .append(")").append(request.notes().isEmpty() ? "" : "; note " + ai.lango.a2a.A2aJson.MAPPER.valueToTree(request.notes()))
                    .append(".\n");
        }
        text.append("Reply \"approve\" or \"deny\" on this task, or send a data part {\"approved\": true|false}.");
        TurnEvent.ApprovalRequest first = asked.get(0);
        ObjectNode data = ai.lango.a2a.A2aJson.MAPPER.createObjectNode().put("approvalId", first.approvalId()).put("tool", first.tool());
        data.set("arguments", ai.lango.a2a.A2aJson.MAPPER.valueToTree(first.args()));
        data.put("safety", first.safety()).put("expiresAt", first.expiresAt());
        return Message.agent(task.contextId(), task.id(), List.of(Part.text(SecretMask.mask(text.toString(), reader)),
                Part.data(ai.lango.a2a.A2aJson.MAPPER.valueToTree(SecretMask.maskMap(ai.lango.a2a.A2aJson.MAPPER.convertValue(data, Map.class), reader)))));
    }

    /** "approve"/"deny" (and their plain synonyms) as the whole text, or a data part {"approved": true|false}. */
    static Optional<Boolean> verdict(Message message) {
        for (Part part : message.parts()) {
            if (part.isData() && part.data().path("approved").isBoolean()) {
                return Optional.of(part.data().get("approved").asBoolean());
            }
        }
        return verdict(message.text());
    }

    /** Cancels a task: a running one stops where it waits (here, or on its server), one waiting for an answer is denied. */
    private Task cancel(A2aTasksStore.Stored found) throws A2aException {
        A2aTasksStore.Stored stored = current(found);
        Task task = stored.task();
        if (task.state().terminal()) {
            throw new A2aException(A2aErrors.TASK_NOT_CANCELABLE, "task " + task.id() + " is "
                    + task.state().wire(ai.lango.a2a.A2aVersion.V0_3) + " and cannot be canceled");
        }
        if (task.state().interrupted()) {
            Task canceled = task.moved(TaskState.CANCELED, Message.agent("The task was canceled; the call that waited for"
                    + " approval did not run.", task.contextId(), task.id()), Instant.now());
            if (store.move(canceled, task.state(), null)) {
                if (stored.approvalId() != null) {
                    approvals.decide(stored.approvalId(), stored.userId(), false, Approval.By.USER);
                }
                return canceled;
            }
            return cancel(found(task.id(), stored.userId()));
        }
        Local local = running.get(task.id());
        if (local != null) {
            turns.stop(local.userId(), local.sessionKey());
        } else {
            store.requestCancel(task.id());
        }
        long until = System.nanoTime() + CANCEL_WAIT.toNanos();
        while (System.nanoTime() < until) {
            A2aTasksStore.Stored now = current(found(task.id(), stored.userId()));
            if (!now.task().state().running()) {
                return now.task();
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return current(found(task.id(), stored.userId())).task();
    }

    private A2aTasksStore.Stored found(String id, String userId) throws A2aException {
        return store.find(id, userId).orElseThrow(() -> new A2aException(A2aErrors.TASK_NOT_FOUND, "task " + id + " not found"));
    }

    /**
     * The stored task, failed first if it still says it runs but its server went silent (stopped, killed) and its turn
     * will not be resumed (a server that resumes it takes the task on).
     */
    private A2aTasksStore.Stored current(A2aTasksStore.Stored stored) {
        Task task = stored.task();
        if (!task.state().running() || running.containsKey(task.id())
                || stored.heartbeatAt().isAfter(Instant.now().minus(SILENT)) || resumable(task.id())) {
            return stored;
        }
        Task failed = task.moved(TaskState.FAILED, Message.agent("The server that ran this task stopped before it finished;"
                + " send the message again.", task.contextId(), task.id()), Instant.now());
        store.move(failed, task.state(), null);
        return store.find(task.id(), stored.userId()).orElse(stored);
    }

    /** Whether the task's turn, cut off by a crash, is still to be resumed. */
    private boolean resumable(String taskId) {
        return settings.agent().resume() && turnRows.byReference(taskId)
                .filter(turn -> EDGE.equals(turn.edge()) && turn.state() == ai.lango.session.TurnRecord.State.RUNNING).isPresent();
    }

    /** A task whose turn this server resumes after a crash: how the turn's events reach it, and how it ends. */
    record Adopted(Consumer<TurnEvent> events, Consumer<CompletableFuture<String>> ends) {
    }

    /**
     * Takes on the task of {@code turn}, which this server resumes after a crash: the task works here again (its
     * heartbeat this server's), hears the turn from now on and ends as the turn does. Empty when the turn is no task's
     * or its task is over.
     */
    Optional<Adopted> adopt(ai.lango.session.TurnRecord turn) {
        if (!EDGE.equals(turn.edge()) || turn.reference() == null) {
            return Optional.empty();
        }
        Optional<A2aTasksStore.Stored> stored = store.find(turn.reference(), turn.userId());
        if (stored.isEmpty() || stored.get().task().state().terminal()) {
            return Optional.empty();
        }
        Task task = stored.get().task();
        Task working = task.state() == TaskState.WORKING ? task : task.moved(TaskState.WORKING, null, Instant.now());
        TaskRun run = new TaskRun(working, saved -> save(saved));
        Listener listener = new Listener(run, RESUMED_OPTIONS, new Audience(turn.userId(), turn.admin()));
        running.put(task.id(), new Local(run, turn.userId(), stored.get().sessionKey()));
        save(working);
        return Optional.of(new Adopted(listener.andThen(event -> {
            if (event instanceof TurnEvent.Resumed resumed) {
                run.working(resumed.note());
            }
        }), ended -> finish(ended, run, listener, turn.userId())));
    }

    /** How a resumed task's turn is answered: as its first message asked, without files (the caller's wish is not kept). */
    private static final A2aServer.SendOptions RESUMED_OPTIONS = new A2aServer.SendOptions(false, null, List.of());

    /** Heartbeats for this server's running tasks, and the cancels asked for them elsewhere. */
    void sweep() {
        try {
            if (running.isEmpty()) {
                return;
            }
            Set<String> ids = Set.copyOf(running.keySet());
            if (System.currentTimeMillis() - lastHeartbeat >= HEARTBEAT.toMillis()) {
                store.heartbeat(ids);
                lastHeartbeat = System.currentTimeMillis();
            }
            for (String id : store.cancelRequested(ids)) {
                Local local = running.get(id);
                if (local != null) {
                    turns.stop(local.userId(), local.sessionKey());
                }
            }
        } catch (RuntimeException e) {
            LOG.warning(() -> "the A2A task sweep failed: " + e.getMessage());
        }
    }

    /**
     * A request decided elsewhere ends the task that waited for it: expired or superseded, the call did not run;
     * answered on another channel, the turn went on there.
     */
    void resolved(@Observes ApprovalResolved resolved) {
        if (!resolved.approval().sessionKey().startsWith(SESSION_PREFIX)) {
            return;
        }
        store.waitingFor(resolved.approval().id()).ifPresent(waiting -> {
            Task task = waiting.task();
            String why = switch (resolved.by()) {
                case TIMEOUT -> "No one answered approval " + resolved.approval().id() + " in time; the call did not run.";
                case SUPERSEDED -> "A new message in the context came before an answer to approval "
                        + resolved.approval().id() + "; the call did not run.";
                default -> "Approval " + resolved.approval().id() + " was " + resolved.decision().wire()
                        + " on another channel; the turn went on there.";
            };
            store.move(task.moved(TaskState.FAILED, Message.agent(why, task.contextId(), task.id()), Instant.now()),
                    TaskState.INPUT_REQUIRED, null);
        });
    }

    /** A turn's events, as its task's: chunks of the answer, what it does, the calls that wait. */
    private final class Listener implements Consumer<TurnEvent> {
        private final TaskRun run;
        private final A2aServer.SendOptions options;
        final List<TurnEvent.ApprovalRequest> asked = new CopyOnWriteArrayList<>();
        private final Set<String> written = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
        /** Who reads the task: its turn's caller (a secret they may not use is unnamed to them). */
        final Audience reader;

        Listener(TaskRun run, A2aServer.SendOptions options, Audience reader) {
            this.run = run;
            this.options = options;
            this.reader = reader;
        }

        @Override
        public void accept(TurnEvent event) {
            if (event instanceof TurnEvent.Chunk chunk) {
                run.chunk(SecretMask.mask(chunk.text(), reader));
            } else if (event instanceof TurnEvent.ApprovalRequest request) {
                asked.add(request);
            } else if (event instanceof TurnEvent.ToolCall call) {
                if ((call.name().equals("fs_write") || call.name().equals("fs_edit")) && call.args().get("path") instanceof String path) {
                    written.add(path);
                }
                run.working("calling " + call.name());
            } else if (event instanceof TurnEvent.Delegation delegation) {
                run.working("handed to " + delegation.to());
            } else if (event instanceof TurnEvent.ToolProgress progress) {
                run.working(progress.tool() + ": " + (progress.message() == null || progress.message().isBlank()
                        ? progress.progress() + (progress.total() > 0 ? "/" + progress.total() : "") : progress.message()));
            }
        }

        /** The files the turn wrote, as artifacts, when the caller accepts their type (or any, "*&#47;*"). */
        List<Artifact> files(String userId) {
            List<String> accepted = options.acceptedOutputModes();
            if (written.isEmpty() || accepted.isEmpty()) {
                return List.of();
            }
            Workspace workspace = new Workspace(settings.tools().workspaceOf(userId, Names.DEFAULT_USER));
            List<Artifact> files = new ArrayList<>();
            for (String path : written) {
                try {
                    Path file = workspace.resolve(path);
                    String type = Optional.ofNullable(URLConnection.guessContentTypeFromName(file.getFileName().toString()))
                            .orElse(path.toLowerCase(Locale.ROOT).endsWith(".md") ? "text/markdown"
                                    : path.toLowerCase(Locale.ROOT).endsWith(".json") ? "application/json" : "application/octet-stream");
                    if (!(accepted.contains("*/*") || accepted.contains(type)) || !Files.isRegularFile(file)
                            || Files.size(file) > MAX_FILE_BYTES) {
                        continue;
                    }
                    String bytes = Base64.getEncoder().encodeToString(SecretMask.mask(Files.readString(file), reader).getBytes(
                            java.nio.charset.StandardCharsets.UTF_8));
                    files.add(new Artifact("file:" + workspace.relative(file), workspace.relative(file),
                            List.of(Part.file(bytes, workspace.relative(file), type))));
                } catch (ToolException | IOException | RuntimeException e) {
                    LOG.fine(() -> "the written file " + path + " is not returned: " + e.getMessage());
                }
            }
            return files;
        }
    }

    /** The events of a task that runs on another server, by asking the database for its state. */
    private final class Polled implements A2aServer.Subscription {
        private final String userId;
        private Task last;
        private boolean first = true;
        private volatile boolean ended;

        Polled(Task task, String userId) {
            this.last = task;
            this.userId = userId;
        }

        @Override
        public TaskEvent next(Duration wait) throws InterruptedException {
            if (ended) {
                return null;
            }
            if (first) {
                first = false;
                if (!last.state().running()) {
                    ended = last.state().interrupted() || last.state().terminal();
                }
                return new TaskEvent.Snapshot(last);
            }
            long until = System.nanoTime() + wait.toNanos();
            while (System.nanoTime() < until) {
                Optional<A2aTasksStore.Stored> now = store.find(last.id(), userId).map(A2aTasks.this::current);
                if (now.isPresent() && now.get().task().state() != last.state()) {
                    last = now.get().task();
                    boolean over = !last.state().running();
                    ended = over;
                    return new TaskEvent.StatusUpdate(last.id(), last.contextId(), last.status(), over);
                }
                Thread.sleep(Math.min(500, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
            }
            return null;
        }

        @Override
        public boolean ended() {
            return ended;
        }

        @Override
        public void close() {
            ended = true;
        }
    }

    /** "approve" or "deny" (and their plain synonyms), as the whole of a message; empty for anything else. */
    static Optional<Boolean> verdict(String text) {
        String word = text.strip().toLowerCase(Locale.ROOT).replaceAll("[.!]+$", "");
        if (List.of("approve", "approved", "yes", "y", "ok").contains(word)) {
            return Optional.of(true);
        }
        if (List.of("deny", "denied", "no", "n", "reject").contains(word)) {
            return Optional.of(false);
        }
        return Optional.empty();
    }
}
