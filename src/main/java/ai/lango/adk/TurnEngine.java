package ai.lango.adk;

import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.TurnMetrics;
import ai.lango.adk.runner.TurnThreads;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.sessions.TurnSessions;
import ai.lango.approval.Approvals;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.masking.Audience;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import ai.lango.provider.ProviderException;
import ai.lango.adk.tools.ToolCatalog;
import ai.lango.session.SessionLeases;
import ai.lango.session.TurnRecord;
import ai.lango.session.TurnRows;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.MessageTooLargeException;
import ai.lango.turn.ModelCall;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnCompleted;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.genai.types.FinishReason;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs turns: each on {@link TurnThreads} (ADK does its work, JPA included, on the thread that subscribes), with
 * its {@link TurnContext} handed down to ADK's runner of that turn — so its tools, its model calls and its
 * session writes act as the turn's caller, on whatever thread they run. Tells a listener what happens as it
 * happens, fires {@link TurnCompleted} once a turn is over, and on stop gives the turns in flight their grace.
 * What a turn is (who may start it, answer it, stop it) is the application layer's business; this is the engine.
 */
@ApplicationScoped
public class TurnEngine {

    private static final Logger LOG = MaskedLogs.of(TurnEngine.class);

    @Inject
    LangoSettings settings;

    @Inject
    Agents agents;

    @Inject
    JpaSessionService sessions;

    @Inject
    TurnMetrics metrics;

    @Inject
    TurnThreads threads;

    /** Observed asynchronously by whatever learns from turns (memory, learnings). */
    @Inject
    jakarta.enterprise.event.Event<TurnCompleted> completed;

    /** Turns of one session across servers sharing the database. */
    @Inject
    SessionLeases leases;

    /** Learned fixes for self-correction: none, unless a subsystem provides them (see {@link NoLearnedFixes}). */
    @Inject
    LearnedFixes fixes;

    @Inject
    Approvals approvals;

    /** Where the usage of calls no session write carried (a failed call, a cut turn) is written at the turn's end. */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    /** The durable turns: each run's turn row written with its input, and its end. */
    @Inject
    TurnRows turnRows;

    /** Where a run's end is written, with other turns' appends. */
    @Inject
    ai.lango.session.SessionStore store;

    /** What a cut call's tool is: whether it may run again without a person. */
    @Inject
    ToolCatalog tools;

    private volatile LangoRunner runner;

    /** Where the engine is in its life: what readiness reports. */
    public enum State { STARTING, READY, STOPPING }

    public State state() {
        return stopping ? State.STOPPING : agents.started() ? State.READY : State.STARTING;
    }

    /** Turns running now. */
    public int turnsInFlight() {
        return inFlight.size();
    }

    void start(@Observes @Priority(250) @Initialized(ApplicationScoped.class) Object event) {
        agents.blueprint().ifPresent(blueprint -> {
            LangoSettings.AgentLimits limits = settings.agent();
            LangoRunner.Runners runners = turn -> {
                if (turn.begins() == TurnContext.Begins.STARTED) { // while the run holds its session
                    turn.retry().ifPresent(question -> sessions.supersedeLastTurn(turn.session(),
                            SecretMask.mask(question, new Audience(turn.userId(), turn.admin()))));
                }
                TurnSessions written = sessions.forTurn(turn, new TurnRecord.Begin(record(turn)));
                return new LangoRunner.Run(blueprint.runner(turn, written), written::awaitInput);
            };
            runner = new LangoRunner(runners, agents.agents().map(AgentInfo::subAgents).orElse(List.of()).stream()
                    .map(AgentInfo::name).toList(),
                    new LangoRunner.Limits(limits.maxTurns(), limits.errorCorrection(), limits.requestTimeout()),
                    fixes, (sessionKey, wait) -> leases.acquire(sessionKey, wait).map(held -> held::close),
                    (userId, sessionId, reason, said) -> sessions.endCutTurn(new SessionRef(Names.APP, userId, sessionId),
                            said.map(TurnEngine::cutShort), errorEvent(agentName(), TIMEOUT_CODE, reason)),
                    // In a group commit with other turns' appends: one statement, no transaction of its own. A run that
                    // ended done has its answer stored already, so its end need not hold up the turn's response.
                    (turn, ending, error) -> {
                        TurnRecord.End end = turnRows.ending(turn.id(), switch (ending) {
                            case DONE -> TurnRecord.State.DONE;
                            case WAITING -> TurnRecord.State.WAITING;
                            case FAILED -> TurnRecord.State.FAILED;
                        }, error);
                        if (ending == LangoRunner.TurnEnds.Ending.DONE) {
                            store.turnEndedSoon(end);
                        } else {
                            store.turnEnded(end);
                        }
                    });
        });
    }

    /** The row of a run of {@code turn}: it runs on this server from now. */
    private TurnRecord record(TurnContext turn) {
        Instant now = Instant.now();
        return new TurnRecord(turn.id(), turn.userId(), turn.sessionKey(), turn.session().scope(), TurnRecord.State.RUNNING,
                turnRows.server(), turn.edge(), turn.reference(), turn.admin(), turn.credential().name(), turn.streaming(), 0,
                now, now, now, null);
    }

    private String agentName() {
        return agents.agents().map(AgentInfo::name).orElse(Names.SINGLE_AGENT);
    }

    /** Renames a user's session (its title in the chat page's list); false when it does not exist. */
    public boolean renameSession(String userId, String sessionKey, String title) {
        return sessions.rename(new SessionRef(Names.APP, userId, sessionKey), title);
    }

    /**
     * Stops the turn of a user's session running on this server where it waits, the same way its
     * timeout would (the model's stream closed, a running tool stopped); its request fails with a
     * {@link ai.lango.turn.TurnAbortedException}, what it did so far stays stored, and the session is
     * free at once. Whether a turn was running.
     */
    public boolean stop(String userId, String sessionKey) {
        LangoRunner current = runner;
        return current != null && current.stop(userId, sessionKey);
    }

    /** Deletes a user's session (its turn, if one runs here, stopped first); whether it existed. */
    public boolean deleteSession(String userId, String sessionKey) {
        boolean[] existed = {false};
        Runnable delete = () -> {
            existed[0] = sessions.readSession(Names.APP, userId, sessionKey).isPresent();
            sessions.deleteSession(Names.APP, userId, sessionKey).blockingAwait();
        };
        LangoRunner current = runner;
        if (current == null) {
            delete.run();
        } else {
            current.stop(userId, sessionKey);
            current.whileIdle(userId, sessionKey, delete); // what the stopped turn leaves is written first, then deleted
        }
        return existed[0];
    }

    /**
     * Starts {@code turn} with {@code message} (resuming with {@code answer} to a request for approval when given) on
     * {@link TurnThreads}, and tells {@code listener} what happens as it happens (chunks as the model writes them when
     * it streams). The future completes with the answer's text, or fails with a {@link TurnFailedException} meant for
     * the user.
     */
    public CompletableFuture<String> run(TurnContext turn, String message, Optional<TurnRequest.ApprovalAnswer> answer,
                                         boolean streaming, Consumer<TurnEvent> listener) {
        return run(continuing(turn, answer), message, answer.stream().toList(), streaming, listener, event -> { });
    }

    /** The same turn for the ADK-compatible API: {@code eventJson} gets each event as ADK's own JSON. */
    public CompletableFuture<String> runAdk(TurnContext turn, String message, Optional<TurnRequest.ApprovalAnswer> answer,
                                            boolean streaming, Consumer<String> eventJson) {
        return run(continuing(turn, answer), message, answer.stream().toList(), streaming, null,
                event -> eventJson.accept(event.toJson()));
    }

    /**
     * A turn an answer to a request for approval continues is the turn that asked: the one of the session that waits
     * for a person, whose row goes on.
     */
    private TurnContext continuing(TurnContext turn, Optional<TurnRequest.ApprovalAnswer> answer) {
        if (answer.isEmpty()) {
            return turn;
        }
        TurnContext.Builder continued = turn.toBuilder().begins(TurnContext.Begins.CONTINUED);
        turnRows.waitingIn(turn.session().scope()).ifPresent(waiting -> continued.id(waiting.id())
                .edge(waiting.edge(), waiting.reference()));
        return continued.build();
    }

    /** Waits for a turn's answer on the caller's thread; fails with a {@link TurnFailedException} meant for the user. */
    public String await(CompletableFuture<String> turn) {
        try {
            // The runner enforces the request timeout itself; this bound only guards against a stuck thread.
            return turn.get(2 * settings.agent().requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw (TurnFailedException) e.getCause();
        } catch (TimeoutException e) {
            turn.cancel(true);
            throw new TurnFailedException("the turn did not finish within the request timeout", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TurnFailedException("interrupted", e);
        }
    }

    /**
     * One turn: {@code listener} (may be null) gets Lango's events, {@code adkListener} ADK's own.
     * Once it is over, stored or failed, {@link TurnCompleted} is fired for whoever learns from turns.
     */
    private CompletableFuture<String> run(TurnContext requested, String text, List<TurnRequest.ApprovalAnswer> answers,
                                          boolean streaming, Consumer<TurnEvent> listener, Consumer<Event> adkListener) {
        String userId = requested.userId();
        String sessionKey = requested.sessionKey();
        // What the user typed goes nowhere (model, rows, other clients) with a known secret in it.
        String message = SecretMask.mask(text, new Audience(userId, requested.admin()));
        LangoRunner current = runner;
        if (current == null) {
            String unavailable = agents.unavailable().orElse(Agents.NO_PROVIDER);
            return CompletableFuture.failedFuture(new TurnFailedException(unavailable,
                    new ProviderException("none", ProviderException.Kind.NOT_CONFIGURED, unavailable)));
        }
        int tokens = TokenEstimator.estimate(message);
        if (tokens > sessions.tokenBudget()) {
            MessageTooLargeException tooLarge = new MessageTooLargeException(tokens, sessions.tokenBudget());
            return CompletableFuture.failedFuture(new TurnFailedException(tooLarge.getMessage(), tooLarge));
        }
        CompletableFuture<String> future = new CompletableFuture<>();
        InFlight running = new InFlight(requested.session(), future);
        inFlight.add(running);
        if (stopping) { // checked after registering, so a drain either sees this turn or refuses it
            finished(running);
            return CompletableFuture.failedFuture(new TurnFailedException(STOPPING, null));
        }
        TurnMetrics.Turn measured = metrics.start(settings.model().provider().map(LangoSettings.ModelProvider::id).orElse("none"));
        TurnEvents events = new TurnEvents(listener == null ? event -> { } : listener);
        // Linked before the client hears of the request, so an answer sent at once finds what to resume.
        Consumer<Event> onEvent = measured.andThen(this::linkApprovals).andThen(events).andThen(adkListener);
        // The turn's span: a child of the request that started it (an HTTP request's server span), a root for a /ws frame.
        io.opentelemetry.context.Context parent = io.opentelemetry.context.Context.current();
        boolean underRequest = io.opentelemetry.api.trace.Span.fromContext(parent).getSpanContext().isValid();
        io.opentelemetry.api.trace.Span turnSpan = ai.lango.telemetry.Telemetry.tracer().spanBuilder("lango.turn")
                .setParent(parent).setSpanKind(underRequest ? io.opentelemetry.api.trace.SpanKind.INTERNAL
                        : io.opentelemetry.api.trace.SpanKind.SERVER)
                .setAttribute(ai.lango.telemetry.Telemetry.CONVERSATION, sessionKey).startSpan();
        io.opentelemetry.context.Context traced = parent.with(turnSpan);
        Map<String, String> carrier = new HashMap<>();
        try (io.opentelemetry.context.Scope scope = traced.makeCurrent()) {
            ai.lango.telemetry.Telemetry.inject(carrier::put);
        }
        // The turn as it runs: its deadline, its trace, and its tools' progress told as the turn's events.
        TurnContext turn = requested.toBuilder()
                .streaming(streaming)
                .deadline(Instant.now().plus(settings.agent().requestTimeout()))
                .traceparent(carrier.get("traceparent"))
                .progress(events::report)
                .build();
        threads.execute(() -> {
            running.thread = Thread.currentThread();
            String reply = null;
            TurnFailedException failure = null;
            io.opentelemetry.context.Scope inTrace = traced.makeCurrent();
            try {
                reply = current.runAndCollect(turn, message, answers, streaming, onEvent);
                measured.end(false);
            } catch (RuntimeException e) {
                measured.end(true);
                if (!(e instanceof TurnFailedException)) {
                    LOG.log(Level.WARNING, "a turn failed unexpectedly", e);
                }
                failure = e instanceof TurnFailedException turnError ? turnError
                        : new TurnFailedException(String.valueOf(e.getMessage()), e);
            }
            try {
                List<ModelCall> unwritten = turn.meter().drain();
                if (ledger != null) {
                    ledger.record(unwritten); // calls whose answer no event carried (a failed call, a cut turn)
                }
                // an eval run's replay teaches nothing: what memory and learning keep stays the user's own conversations'
                if (!Names.isEvalSession(sessionKey)) {
                    TurnCompleted done = new TurnCompleted(userId, turn.admin(), sessionKey, message, reply == null ? "" : reply,
                            Optional.ofNullable(failure).map(Throwable::getMessage), events.outcomes(), Instant.now());
                    try {
                        completed.fireAsync(done);
                    } catch (RuntimeException refused) {
                        // the server is stopping and its executors are gone: what learns from turns misses this one
                        LOG.log(Level.FINE, "a finished turn was not passed on to memory and learning", refused);
                    }
                }
            } finally {
                if (failure != null) {
                    turnSpan.setStatus(io.opentelemetry.api.trace.StatusCode.ERROR,
                            SecretMask.mask(String.valueOf(failure.getMessage())));
                }
                inTrace.close();
                turnSpan.end();
                running.thread = null;
                if (failure == null) {
                    future.complete(reply);
                } else {
                    future.completeExceptionally(failure);
                }
                finished(running);
            }
        });
        return future;
    }

    /** What resuming a turn a crash cut off did. */
    public sealed interface Resumed {
        /** Nothing was left to do: its answer was stored (done, with that answer), or its error (failed). */
        record Over(boolean failed, String answer) implements Resumed {
        }

        /** It waits for a person: the requests it asked before, or asks now to run cut calls again. */
        record Waiting(List<TurnEvent.ApprovalRequest> asked) implements Resumed {
        }

        /** It runs again: its answer, or its failure meant for the user. */
        record Running(CompletableFuture<String> turn) implements Resumed {
        }
    }

    /** What a person is told of a turn that goes on after a crash. */
    public static final String RESUMED_NOTE = "the server restarted; continuing";
    /** How far back a cut turn is read: a turn's worth of events. */
    private static final int RESUME_WINDOW = 100;

    /**
     * Resumes {@code turn}, cut off by a crash (its row claimed by this server), from what its session holds: a model
     * call that had not finished is made again; a call whose result is stored is not; a call without one runs again
     * only when its tool only reads — any other waits for a person, whose card says it may or may not have taken
     * effect; requests that waited for a person go on waiting. {@code listener} hears the turn from now on, starting
     * with {@link TurnEvent.Resumed}.
     */
    public Resumed resume(TurnContext turn, Consumer<TurnEvent> listener) {
        TurnTail.Left left = TurnTail.of(sessions.recentEvents(turn.session(), RESUME_WINDOW));
        LOG.info(() -> "turn " + turn.id() + " was cut at: " + left.getClass().getSimpleName());
        if (left instanceof TurnTail.Over over) {
            turnRows.ended(turn.id(), over.failed() ? TurnRecord.State.FAILED : TurnRecord.State.DONE,
                    over.failed() ? "it had ended with an error before the server stopped" : null);
            return new Resumed.Over(over.failed(), over.answer());
        }
        listener.accept(new TurnEvent.Resumed(agentName(), RESUMED_NOTE));
        if (left instanceof TurnTail.Waiting) {
            List<TurnEvent.ApprovalRequest> asked = pendingAsked(turn);
            asked.forEach(listener);
            return waiting(turn, asked);
        }
        if (left instanceof TurnTail.Unasked unasked) {
            return waiting(turn, ask(turn, unasked, listener));
        }
        if (left instanceof TurnTail.CallsCut cut) {
            return again(turn, cut.agent(), cut.calls(), listener);
        }
        if (left instanceof TurnTail.Answered answered) {
            List<com.google.genai.types.FunctionCall> ran = answered.calls().stream()
                    .filter(decided -> approvals.forConfirmation(turn.session().scope(), decided.confirmationId())
                            .filter(a -> a.decision() == ai.lango.approval.Approval.Decision.APPROVED && a.ran()).isPresent())
                    .map(TurnTail.Decided::call).toList();
            if (!ran.isEmpty()) {
                return again(turn, answered.agent(), ran, listener);
            }
            // decided and not run yet (or denied): ADK's confirmation step makes the call, or tells the model it was not
            return new Resumed.Running(resumeRun(turn, answered.userText(), List.of(), listener));
        }
        return new Resumed.Running(resumeRun(turn, ((TurnTail.AskModel) left).userText(), List.of(), listener));
    }

    /**
     * Ends {@code turn}, cut off by a crash, without resuming it: its calls without a result get one saying they were
     * interrupted, and the error saying why is stored in its session, where its user sees it.
     */
    public void failResumed(TurnContext turn, String why) {
        sessions.endCutTurn(turn.session(), Optional.empty(), errorEvent(agentName(), NOT_RESUMED_CODE, why));
        turnRows.ended(turn.id(), TurnRecord.State.FAILED, why);
    }

    /** How a turn that could not be resumed ends in its session. */
    public static final String NOT_RESUMED_CODE = "turn_not_resumed";

    private Resumed waiting(TurnContext turn, List<TurnEvent.ApprovalRequest> asked) {
        turnRows.ended(turn.id(), TurnRecord.State.WAITING, null);
        return new Resumed.Waiting(asked);
    }

    private CompletableFuture<String> resumeRun(TurnContext turn, String userText, List<TurnRequest.ApprovalAnswer> answers,
                                                Consumer<TurnEvent> listener) {
        TurnContext.Begins begins = answers.isEmpty() ? TurnContext.Begins.RESUMED : TurnContext.Begins.CONTINUED;
        return run(turn.toBuilder().begins(begins).build(), answers.isEmpty() ? userText : "", answers, turn.streaming(),
                listener, event -> { });
    }

    /** The session's requests still waiting for a person, as the turn's events told them. */
    private List<TurnEvent.ApprovalRequest> pendingAsked(TurnContext turn) {
        return approvals.pendingIn(turn.session().scope()).stream().map(a -> new TurnEvent.ApprovalRequest(a.agent(), a.id(),
                a.tool(), a.argsMap(), a.safety().name().toLowerCase(java.util.Locale.ROOT), a.expiresAt().toString(),
                a.notesMap())).toList();
    }

    /**
     * A request for approval whose confirmation was not stored (the crash came between the two): the confirmation is
     * stored now, so that an answer goes on as it would have.
     */
    private List<TurnEvent.ApprovalRequest> ask(TurnContext turn, TurnTail.Unasked unasked, Consumer<TurnEvent> listener) {
        String agent = unasked.response().author();
        List<com.google.genai.types.Part> confirmations = new java.util.ArrayList<>();
        for (com.google.genai.types.FunctionCall call : unasked.calls().functionCalls()) {
            com.google.adk.events.ToolConfirmation asked = call.id().map(unasked.response().actions().requestedToolConfirmations()::get)
                    .orElse(null);
            if (asked != null) {
                confirmations.add(com.google.genai.types.Part.builder().functionCall(confirmationCall(call, asked)).build());
            }
        }
        return asking(turn, agent, List.of(confirmationEvent(agent, confirmations)), listener);
    }

    /**
     * Calls a crash cut off, their results not stored: they run again without a person only when every one of them
     * only reads; otherwise each waits for a person's answer, its card saying it may or may not have taken effect.
     */
    private Resumed again(TurnContext turn, String agent, List<com.google.genai.types.FunctionCall> calls,
                          Consumer<TurnEvent> listener) {
        ai.lango.tool.Caller caller = new ai.lango.tool.Caller(turn, false);
        String scope = turn.session().scope();
        List<ai.lango.tool.Safety> safety = calls.stream().map(call -> tools.safetyOfCut(call.name().orElse(""),
                call.args().orElse(Map.of()), caller)).toList();
        boolean unasked = safety.stream().allMatch(s -> s == ai.lango.tool.Safety.SAFE);
        Map<String, com.google.adk.events.ToolConfirmation> requested = new java.util.LinkedHashMap<>();
        List<com.google.genai.types.Part> responses = new java.util.ArrayList<>();
        List<com.google.genai.types.Part> confirmations = new java.util.ArrayList<>();
        List<TurnRequest.ApprovalAnswer> answers = new java.util.ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            com.google.genai.types.FunctionCall call = calls.get(i);
            String tool = call.name().orElse("");
            Map<String, Object> args = call.args().orElse(Map.of());
            ai.lango.approval.Approvals.Call asked = approvals.call(turn.userId(), turn.sessionKey(), scope,
                    call.id().orElse(""), agent, tool, args, safety.get(i));
            ai.lango.approval.Approval request = unasked ? approvals.rerunUnasked(asked)
                    : approvals.request(asked.noting(Map.of(ai.lango.approval.Approval.RERUN_NOTE, ai.lango.approval.Approval.RERUN_TEXT)));
            Map<String, Object> payload = new java.util.LinkedHashMap<>();
            payload.put("approvalId", request.id());
            payload.put("agent", agent);
            payload.put("tool", tool);
            payload.put("args", request.argsMap());
            payload.put("safety", request.safety().name().toLowerCase(java.util.Locale.ROOT));
            payload.put("expiresAt", request.expiresAt().toString());
            payload.put("notes", request.notesMap());
            com.google.adk.events.ToolConfirmation confirmation = com.google.adk.events.ToolConfirmation.builder()
                    .hint("The server stopped while " + tool + " ran; run it again? (approval " + request.id() + ")")
                    .confirmed(false).payload(payload).build();
            requested.put(call.id().orElse(""), confirmation);
            responses.add(com.google.genai.types.Part.builder().functionResponse(com.google.genai.types.FunctionResponse.builder()
                    .id(call.id().orElse("")).name(tool).response(unasked
                            ? Map.of("status", "rerunning", "message", "The server stopped while this call ran; it only reads,"
                            + " so it runs again.")
                            : Map.of("status", "awaiting_approval", "approvalId", request.id(), "message", "The server stopped"
                            + " while this call ran: it may or may not have taken effect. It runs again only if a person says so."))
                    .build()).build());
            com.google.genai.types.FunctionCall confirmationCall = confirmationCall(call, confirmation);
            confirmations.add(com.google.genai.types.Part.builder().functionCall(confirmationCall).build());
            approvals.attach(request.id(), confirmationCall.id().orElse(""));
            answers.add(new TurnRequest.ApprovalAnswer(confirmationCall.id().orElse(""), true));
        }
        Event results = Event.builder().id(Event.generateEventId()).invocationId(RESUMED_INVOCATION).author(agent)
                .content(com.google.genai.types.Content.builder().role(ai.lango.session.Roles.USER).parts(responses).build())
                .actions(EventActions.builder().requestedToolConfirmations(requested).build())
                .timestamp(System.currentTimeMillis()).build();
        Event confirming = confirmationEvent(agent, confirmations);
        if (unasked) {
            sessions.appendEvents(turn.session(), List.of(results, confirming));
            return new Resumed.Running(resumeRun(turn, "", answers, listener));
        }
        return waiting(turn, asking(turn, agent, List.of(results, confirming), listener));
    }

    /** Stores {@code events} (the last one carries the confirmations) and tells {@code listener} what they ask. */
    private List<TurnEvent.ApprovalRequest> asking(TurnContext turn, String agent, List<Event> events, Consumer<TurnEvent> listener) {
        sessions.appendEvents(turn.session(), events);
        Event confirming = events.get(events.size() - 1);
        List<TurnEvent.ApprovalRequest> asked = new java.util.ArrayList<>();
        for (com.google.genai.types.FunctionCall call : confirming.functionCalls()) {
            TurnEvents.approvalRequest(agent, call).ifPresent(request -> {
                approvals.attach(request.approvalId(), call.id().orElse(""));
                asked.add(request);
                listener.accept(request);
            });
        }
        return asked;
    }

    /** ADK's confirmation call that carries {@code confirmation} about {@code call} to a person. */
    private static com.google.genai.types.FunctionCall confirmationCall(com.google.genai.types.FunctionCall call,
                                                                        com.google.adk.events.ToolConfirmation confirmation) {
        return com.google.genai.types.FunctionCall.builder().name(CONFIRMATION_CALL)
                .id(com.google.adk.flows.llmflows.Functions.generateClientFunctionCallId())
                .args(Map.of("originalFunctionCall", call, "toolConfirmation", confirmation)).build();
    }

    private static Event confirmationEvent(String agent, List<com.google.genai.types.Part> confirmations) {
        return Event.builder().id(Event.generateEventId()).invocationId(RESUMED_INVOCATION).author(agent)
                .content(com.google.genai.types.Content.builder().role(ai.lango.session.Roles.USER).parts(confirmations).build())
                .longRunningToolIds(confirmations.stream().map(p -> p.functionCall().flatMap(c -> c.id()).orElse(""))
                        .collect(java.util.stream.Collectors.toSet()))
                .actions(EventActions.builder().build()).timestamp(System.currentTimeMillis()).build();
    }

    /** The invocation the events a resumed turn stores outside its runs belong to. */
    private static final String RESUMED_INVOCATION = "lango-resumed";

    /** Notes, for each request for approval the event carries, the id ADK gave it: what an answer resumes. */
    private void linkApprovals(Event event) {
        if (!event.functionCalls().isEmpty()) {
            TurnEvents.confirmationIds(event).forEach(approvals::attach);
        }
    }

    /** The name of ADK's function call that asks for confirmation, and of its answer, as the ADK API carries them. */
    public static final String CONFIRMATION_CALL = com.google.adk.flows.llmflows.Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME;

    /** A turn refused because the server is stopping. */
    static final String STOPPING = "Lango is stopping and takes no new turns; send your message again once it is back";
    /** How a turn that outlived the shutdown grace ends, for its client and in its session. */
    static final String STOPPED = "Lango was stopped before this turn finished (it ran longer than "
            + Keys.SHUTDOWN_GRACE + "); send your message again";
    static final String STOPPED_CODE = "server_stopped";
    /** How a turn cut off by lango.agent.request-timeout ends in its session. */
    static final String TIMEOUT_CODE = "turn_timeout";

    /** An event that only says how a turn ended: no content, so no model ever reads it. */
    private static Event errorEvent(String author, String code, String message) {
        return Event.builder().id(Event.generateEventId()).invocationId("").author(author)
                .errorCode(new FinishReason(code)).errorMessage(message).actions(EventActions.builder().build())
                .timestamp(System.currentTimeMillis()).build();
    }

    /**
     * The answer a stop or the timeout cut off while it streamed, as far as it was written: a response of its agent, so
     * that its reader finds it after a reload and the model knows what it had said.
     */
    private static Event cutShort(LangoRunner.Said said) {
        return Event.builder().id(Event.generateEventId()).invocationId("").author(said.author())
                .content(com.google.genai.types.Content.builder().role(ai.lango.session.Roles.MODEL)
                        .parts(List.of(com.google.genai.types.Part.fromText(said.text()))).build())
                .actions(EventActions.builder().build()).timestamp(System.currentTimeMillis()).build();
    }

    /** How long an ended turn's thread gets to leave before its error is stored anyway. */
    private static final Duration END_WAIT = Duration.ofSeconds(2);

    /** A turn that runs: its session, what its caller waits on, and the thread it runs on. */
    private static final class InFlight {
        final SessionRef session;
        final CompletableFuture<String> turn;
        volatile Thread thread;

        InFlight(SessionRef session, CompletableFuture<String> turn) {
            this.session = session;
            this.turn = turn;
        }
    }

    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();
    private final Object idle = new Object();
    private volatile boolean stopping;

    private void finished(InFlight running) {
        inFlight.remove(running);
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /** The application stops (server stop, undeploy): before any bean goes away, the turns in flight get their grace. */
    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
        drain(settings.agent().shutdownGrace());
    }

    /**
     * Refuses new turns, waits up to {@code grace} for the turns in flight, and ends those still
     * running: their callers get {@link #STOPPED}, their threads are interrupted, and the error is
     * stored in their sessions so that whoever opens the session later sees how the turn ended.
     */
    void drain(Duration grace) {
        stopping = true;
        if (inFlight.isEmpty()) {
            return;
        }
        LOG.info(() -> "Lango is stopping: waiting up to " + grace + " for " + inFlight.size() + " turns in flight");
        if (awaitIdle(grace)) {
            LOG.info("Lango is stopping: every turn in flight finished");
            return;
        }
        List<InFlight> cut = List.copyOf(inFlight);
        for (InFlight running : cut) {
            running.turn.completeExceptionally(new TurnFailedException(STOPPED, null));
            Thread thread = running.thread;
            if (thread != null) {
                thread.interrupt();
            }
        }
        awaitIdle(END_WAIT);
        String author = agentName();
        for (InFlight running : cut) {
            Event error = errorEvent(author, STOPPED_CODE, STOPPED);
            try {
                sessions.appendError(running.session, error);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not store how a stopped turn ended", e);
            }
        }
        LOG.warning(() -> "Lango is stopping: ended " + cut.size() + " turns still running after " + grace
                + " with an error stored in their sessions");
    }

    private boolean awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (!inFlight.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(idle, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return inFlight.isEmpty();
                }
            }
            return true;
        }
    }
}
