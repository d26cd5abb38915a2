package ai.lango.adk;

import ai.lango.a2a.A2aClient;
import ai.lango.adk.agents.AgentTree;
import ai.lango.adk.agents.DelegationGuard;
import ai.lango.adk.agents.RemoteAgent;
import ai.lango.adk.artifacts.JpaArtifactService;
import ai.lango.adk.memory.RecallMemoryService;
import ai.lango.adk.models.ModelAdapter;
import ai.lango.adk.models.ProviderCalls;
import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.TurnMetrics;
import ai.lango.adk.runner.TurnThreads;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.tools.ToolCatalog;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.artifact.ArtifactStore;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import ai.lango.prompt.ContextSections;
import ai.lango.prompt.PromptBuilder;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.provider.ProviderException;
import ai.lango.session.SessionLeases;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.MessageTooLargeException;
import ai.lango.turn.Names;
import ai.lango.turn.Recall;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnCompleted;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import com.google.adk.Version;
import com.google.adk.agents.BaseAgent;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.runner.Runner;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.types.FinishReason;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import java.util.logging.Logger;

/**
 * The agent, built once at start from the configuration, and
 * the entry point for a user turn. Turns run on {@link TurnThreads}: ADK does its work,
 * JPA included, on the thread that subscribes.
 */
@ApplicationScoped
public class AgentService {

    /** What to set, as the README says it: the environment variables, and the keys they set. */
    public static final String NO_PROVIDER = "no model provider is configured: set "
            + Keys.PROVIDER.environmentVariable() + " (" + String.join(", ", ProviderCatalog.IDS) + "), "
            + Keys.MODEL_NAME.environmentVariable() + " and, for a hosted provider, LANGO_PROVIDERS_<ID>_API_KEY ("
            + Keys.PROVIDER + ", " + Keys.MODEL_NAME + ", " + ProviderCatalog.configKey("<id>", ProviderCatalog.API_KEY)
            + "), then start the server again";

    /** Where an operator's prompt sections replace the bundled ones, under the data directory. */
    static final String PROMPTS_DIR = "prompts";

    private static final Logger LOG = MaskedLogs.of(AgentService.class);

    @Inject
    LangoSettings settings;

    @Inject
    JpaSessionService sessions;

    @Inject
    ProviderCalls calls;

    @Inject
    ToolCatalog tools;

    @Inject
    TurnMetrics metrics;

    @Inject
    TurnThreads threads;

    /** The per-turn sections of the system prompt (memory, knowledge, …), asked at each model call. */
    @Inject
    ContextSections sections;

    /** Observed asynchronously by whatever learns from turns (memory, learnings). */
    @Inject
    jakarta.enterprise.event.Event<TurnCompleted> completed;

    /** Turns of one session across servers sharing the database. */
    @Inject
    SessionLeases leases;

    /** What users' sessions remember, for ADK's memory service and its loadMemory tool. */
    @Inject
    Recall recall;

    /** Learned fixes for self-correction: none, unless a subsystem provides them (see {@link NoLearnedFixes}). */
    @Inject
    LearnedFixes fixes;

    @Inject
    Approvals approvals;

    /** Sessions' artifacts (screenshots), durable, for ADK's artifact service. */
    @Inject
    ArtifactStore artifacts;

    /** Where every model call's usage is counted and stored. */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    /** The token and cost budgets, checked before every model call of a turn. */
    @Inject
    ai.lango.usage.Budgets budgets;

    /** Liberty's OpenTelemetry (mpTelemetry): a no-op until OTEL_SDK_DISABLED=false. */
    @Inject
    jakarta.enterprise.inject.Instance<io.opentelemetry.api.OpenTelemetry> openTelemetry;

    /** Reading a remote agent's card at start; an unreachable one must not hold the start up for long. */
    static final Duration CARD_TIMEOUT = Duration.ofSeconds(10);
    /** Per request to a remote agent: it runs a whole turn of its own. */
    static final Duration REMOTE_TIMEOUT = Duration.ofMinutes(2);

    private volatile LangoRunner runner;
    private volatile AgentInfo agentInfo;
    private volatile String promptsFingerprint = "";
    private volatile String unavailable = NO_PROVIDER;
    /** Set once start-up has built the agent (or found there is no model to build it for). */
    private volatile boolean started;

    /** Where the service is in its life: what readiness reports. */
    public enum State { STARTING, READY, STOPPING }

    public State state() {
        return stopping ? State.STOPPING : started ? State.READY : State.STARTING;
    }

    /** Why turns cannot run, when no model is configured. */
    public Optional<String> unavailable() {
        return runner == null ? Optional.of(unavailable) : Optional.empty();
    }

    /** Turns running now. */
    public int turnsInFlight() {
        return inFlight.size();
    }

    void start(@Observes @Priority(200) @Initialized(ApplicationScoped.class) Object event) {
        // Spans and metrics go to Liberty's OpenTelemetry; every log line of a turn names its trace.
        ai.lango.telemetry.Telemetry.install(openTelemetry != null && openTelemetry.isResolvable() ? openTelemetry.get()
                : io.opentelemetry.api.OpenTelemetry.noop(), settings.telemetry().captureContent());
        MaskedLogs.tagWith(ai.lango.telemetry.Telemetry::traceId);
        build();
        started = true;
    }

    private void build() {
        Optional<LangoSettings.ModelProvider> configured = settings.model().provider();
        if (configured.isEmpty() || settings.model().name().isEmpty()) {
            unavailable = configured.isEmpty() ? NO_PROVIDER
                    : "no model is configured: set " + Keys.MODEL_NAME + " to a model of " + configured.get().id();
            // A supported way to run (the API, the chat page and the admin API work; turns say what to set): not a warning.
            LOG.info("Lango runs without a model: " + unavailable);
            return;
        }
        LangoSettings.ModelProvider chosen = configured.get();
        if (!settings.agent().multiAgent() && !settings.a2a().remoteAgents().isEmpty()) {
            LOG.warning("lango.a2a.remote-agents is ignored: remote agents are sub-agents of the orchestrator,"
                    + " set lango.agent.multi-agent=true to use them");
        }
        Provider provider = ProviderCatalog.create(chosen.id(), chosen.baseUrl(), chosen.apiKey(), chosen.readTimeout());
        String model = settings.model().name().get();
        List<BaseTool> adapted = new ArrayList<>(tools.adkTools());
        if (settings.memory().enabled()) {
            adapted.add(new LoadMemoryTool());
        }
        LangoSettings.AgentLimits limits = settings.agent();
        AdkTracing.install();
        ModelAdapter llm = new ModelAdapter(model, provider, calls::open, limits.toolIoMaxChars(), meter(), null);
        PromptBuilder prompts = PromptBuilder.load(settings.database().dataDir().resolve(PROMPTS_DIR));
        promptsFingerprint = prompts.fingerprint();
        BaseAgent agent = limits.multiAgent()
                ? AgentTree.orchestrator(llm, adapted, tools.madeAtRunTime(), remoteAgents(), prompts, limits.maxDelegationRounds(),
                        sections::render)
                : AgentTree.single(llm, adapted, tools.madeAtRunTime(), prompts, sections::render);
        sessions.rootAgentName(agent.name());
        Runner adk = Runner.builder().agent(agent).appName(Names.APP)
                .sessionService(sessions).artifactService(new JpaArtifactService(artifacts))
                .memoryService(new RecallMemoryService(recall))
                .plugins(List.of(new DelegationGuard(limits.maxDelegationRounds()))).build();
        runner = new LangoRunner(adk, agent,
                new LangoRunner.Limits(limits.maxTurns(), limits.errorCorrection(), limits.requestTimeout()),
                fixes, (sessionKey, wait) -> leases.acquire(sessionKey, wait).map(held -> held::close),
                (userId, sessionId, reason) -> sessions.endCutTurn(new SessionRef(Names.APP, userId, sessionId),
                        errorEvent(agent.name(), TIMEOUT_CODE, reason)));
        agentInfo = AgentInfos.of(agent);
        LOG.info(() -> "Lango agent " + agent.name() + " ready: provider " + chosen.id() + ", model " + model
                + ", tools " + adapted.stream().map(BaseTool::name).toList()
                + (agent.subAgents().isEmpty() ? "" : ", sub-agents " + agent.subAgents().stream().map(BaseAgent::name).toList()));
    }

    /**
     * What every model call of a turn owes: its user's budgets checked before it (a budget reached ends the turn
     * there, its work so far kept), its usage counted after it — as the provider reported it, or estimated.
     */
    private ModelAdapter.Meter meter() {
        if (ledger == null || budgets == null) {
            return ModelAdapter.Meter.NONE; // without the container (tests of the service alone)
        }
        return new ModelAdapter.Meter() {
            @Override
            public void before() {
                ai.lango.usage.TurnUsage.current().flatMap(turn -> budgets.check(turn.userId(), turn.admin())).ifPresent(reached -> {
                    throw new ai.lango.turn.BudgetExceededException(reached.message(), reached.retryAfter(Instant.now()));
                });
            }

            @Override
            public ai.lango.masking.Audience reader() {
                return ai.lango.usage.TurnUsage.current().map(turn -> new ai.lango.masking.Audience(turn.userId(), turn.admin()))
                        .orElse(ai.lango.masking.Audience.NOBODY);
            }

            @Override
            public void after(String agent, String provider, String model, ai.lango.provider.ChatRequest request, String answer,
                              ai.lango.provider.StreamEvent.Usage reported) {
                Optional<ai.lango.usage.TurnUsage> turn = ai.lango.usage.TurnUsage.current();
                long input;
                long output;
                long cached = 0;
                if (reported != null) {
                    input = reported.inputTokens();
                    output = reported.outputTokens();
                    cached = reported.cachedTokens();
                } else {
                    input = request.messages().stream().mapToLong(m -> TokenEstimator.estimate(m.content())
                            + m.toolCalls().stream().mapToLong(c -> TokenEstimator.estimate(c.arguments())).sum()).sum();
                    output = TokenEstimator.estimate(answer);
                }
                ledger.made(ledger.call(turn.map(ai.lango.usage.TurnUsage::userId).orElse(Names.DEFAULT_USER),
                        turn.map(ai.lango.usage.TurnUsage::sessionKey).orElse(null), agent == null ? "" : agent, provider, model,
                        ai.lango.usage.ModelCall.AGENT, input, output, cached, reported == null));
            }
        };
    }

    /** lango.a2a.remote-agents, as sub-agents for the orchestrator; only multi-agent mode has a place for them. */
    private List<BaseAgent> remoteAgents() {
        return RemoteAgent.load(settings.a2a().remoteAgents(), new A2aClient(CARD_TIMEOUT), new A2aClient(REMOTE_TIMEOUT), approvals);
    }

    /** Which prompts the agent runs with (a hash of every section as loaded at start); empty before start. */
    public String promptsFingerprint() {
        return promptsFingerprint;
    }

    /** The agent tree, when a model is configured. */
    public Optional<AgentInfo> agents() {
        return Optional.ofNullable(agentInfo);
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

    /** The version of ADK for Java this server runs, as ADK's API server reports it. */
    public String adkVersion() {
        return Version.JAVA_ADK_VERSION;
    }

    /**
     * Starts one user turn on {@link TurnThreads} and tells {@code listener} what happens as it
     * happens (chunks as the model writes them when the request streams). The future completes with
     * the answer's text, or fails with a {@link TurnFailedException} meant for the user.
     */
    public CompletableFuture<String> chat(TurnRequest request, Consumer<TurnEvent> listener) {
        return run(request, listener);
    }

    /**
     * The same turn for the ADK-compatible API: {@code eventJson} gets each event as ADK's own JSON,
     * as ADK's API server would send it.
     */
    public CompletableFuture<String> chatAdk(TurnRequest request, Consumer<String> eventJson) {
        return run(request, null, event -> eventJson.accept(event.toJson()));
    }

    /**
     * Resumes the turn that asked for {@code approval}, now decided: the call runs if the decision
     * was approval (and only then), and the model goes on from its result or from being told it did
     * not run. {@code admin}: whether the credential that answered administers (false for an answer
     * nobody gave: a timeout). {@code listener} gets the resumed turn's events.
     */
    public CompletableFuture<String> resume(Approval approval, boolean admin, boolean streaming, Consumer<TurnEvent> listener) {
        return resuming(approval, admin, streaming).map(turn -> run(turn, listener)).orElseGet(() -> unresumable(approval));
    }

    /** The same for the ADK-compatible API: {@code eventJson} gets each event as ADK's own JSON. */
    public CompletableFuture<String> resumeAdk(Approval approval, boolean admin, boolean streaming, Consumer<String> eventJson) {
        return resuming(approval, admin, streaming).map(turn -> run(turn, null, event -> eventJson.accept(event.toJson())))
                .orElseGet(() -> unresumable(approval));
    }

    /** The turn that answers the decided request; empty when ADK's id for it was never recorded. */
    private static Optional<TurnRequest> resuming(Approval approval, boolean admin, boolean streaming) {
        return approval.confirmationId().map(id -> TurnRequest.resuming(approval.userId(), admin, approval.sessionKey(),
                new TurnRequest.ApprovalAnswer(id, approval.decision() == Approval.Decision.APPROVED), streaming));
    }

    private static CompletableFuture<String> unresumable(Approval approval) {
        return CompletableFuture.failedFuture(new TurnFailedException("the turn that asked for approval " + approval.id()
                + " cannot be resumed (the server stopped before it was recorded)", null));
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

    private CompletableFuture<String> run(TurnRequest request, Consumer<TurnEvent> listener) {
        return run(request, listener, event -> { });
    }

    /**
     * One turn: {@code listener} (may be null) gets Lango's events, {@code adkListener} ADK's own.
     * Once it is over, stored or failed, {@link TurnCompleted} is fired for whoever learns from turns.
     */
    private CompletableFuture<String> run(TurnRequest request, Consumer<TurnEvent> listener, Consumer<Event> adkListener) {
        String userId = request.userId();
        String sessionKey = request.sessionKey();
        // What the user typed goes nowhere (model, rows, other clients) with a known secret in it.
        String message = SecretMask.mask(superseding(request), new ai.lango.masking.Audience(userId, request.admin()));
        LangoRunner current = runner;
        if (current == null) {
            return CompletableFuture.failedFuture(new TurnFailedException(unavailable,
                    new ProviderException("none", ProviderException.Kind.NOT_CONFIGURED, unavailable)));
        }
        int tokens = TokenEstimator.estimate(message);
        if (tokens > sessions.tokenBudget()) {
            MessageTooLargeException tooLarge = new MessageTooLargeException(tokens, sessions.tokenBudget());
            return CompletableFuture.failedFuture(new TurnFailedException(tooLarge.getMessage(), tooLarge));
        }
        CompletableFuture<String> turn = new CompletableFuture<>();
        InFlight running = new InFlight(request.session(), turn);
        inFlight.add(running);
        if (stopping) { // checked after registering, so a drain either sees this turn or refuses it
            finished(running);
            return CompletableFuture.failedFuture(new TurnFailedException(STOPPING, null));
        }
        TurnMetrics.Turn measured = metrics.start(settings.model().provider().map(LangoSettings.ModelProvider::id).orElse("none"));
        String scope = request.session().scope();
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
        threads.execute(() -> {
            running.thread = Thread.currentThread();
            String answer = null;
            TurnFailedException failure = null;
            io.opentelemetry.context.Scope traced = parent.with(turnSpan).makeCurrent();
            try {
                tools.callers().begin(scope, request.admin());
                ai.lango.usage.TurnUsage.begin(userId, sessionKey, request.admin());
                ai.lango.tool.ToolProgress.listen(scope, report -> events.report(new TurnEvent.ToolProgress("", report.tool(),
                        report.progress(), report.total(), report.message())));
                answer = current.runAndCollect(userId, request.admin(), sessionKey, message, request.answer(),
                        request.streaming(), onEvent);
                measured.end(false);
            } catch (RuntimeException e) {
                measured.end(true);
                if (!(e instanceof TurnFailedException)) {
                    LOG.log(java.util.logging.Level.WARNING, "a turn failed unexpectedly", e);
                }
                failure = e instanceof TurnFailedException turnError ? turnError
                        : new TurnFailedException(String.valueOf(e.getMessage()), e);
            }
            try {
                // an eval run's replay teaches nothing: what memory and learning keep stays the user's own conversations'
                if (!ai.lango.turn.Names.isEvalSession(sessionKey)) {
                    completed.fireAsync(new TurnCompleted(userId, request.admin(), sessionKey, message, answer == null ? "" : answer,
                            Optional.ofNullable(failure).map(Throwable::getMessage), events.outcomes(), Instant.now()));
                }
                if (failure == null) {
                    turn.complete(answer);
                } else {
                    turn.completeExceptionally(failure);
                }
            } finally {
                tools.callers().end(scope);
                List<ai.lango.usage.ModelCall> unwritten = ai.lango.usage.TurnUsage.current().map(ai.lango.usage.TurnUsage::end)
                        .orElse(List.of());
                if (ledger != null) {
                    ledger.record(unwritten); // calls whose answer no event carried (a failed call, a cut turn)
                }
                ai.lango.tool.ToolProgress.stop(scope);
                if (failure != null) {
                    turnSpan.setStatus(io.opentelemetry.api.trace.StatusCode.ERROR, SecretMask.mask(String.valueOf(failure.getMessage())));
                }
                traced.close();
                turnSpan.end();
                running.thread = null;
                finished(running);
            }
        });
        return turn;
    }

    /**
     * The message of a new turn on a session where calls wait for approval: they are superseded
     * (they will not run), and the message tells the model so before the user's words.
     */
    private String superseding(TurnRequest request) {
        if (request.answer().isPresent()) {
            return request.message();
        }
        Map<Approval, Approval.Decision> ended = approvals.supersede(request.session().scope());
        if (ended.isEmpty()) {
            return request.message();
        }
        StringBuilder note = new StringBuilder();
        ended.forEach((a, decision) -> note.append("[System: the call of ").append(a.tool()).append(" that waited for approval ")
                .append(a.id()).append(decision == Approval.Decision.EXPIRED ? " expired unanswered" : " was superseded by this message")
                .append("; it did not run.]\n"));
        return note + request.message();
    }

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
        String author = agents().map(AgentInfo::name).orElse(Names.SINGLE_AGENT);
        for (InFlight running : cut) {
            Event error = errorEvent(author, STOPPED_CODE, STOPPED);
            try {
                sessions.appendError(running.session, error);
            } catch (RuntimeException e) {
                LOG.log(java.util.logging.Level.WARNING, "could not store how a stopped turn ended", e);
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
