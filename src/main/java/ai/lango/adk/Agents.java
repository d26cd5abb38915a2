package ai.lango.adk;

import ai.lango.a2a.A2aClient;
import ai.lango.adk.agents.AgentTree;
import ai.lango.adk.agents.DelegationGuard;
import ai.lango.adk.agents.RemoteAgent;
import ai.lango.adk.artifacts.JpaArtifactService;
import ai.lango.adk.memory.RecallMemoryService;
import ai.lango.adk.models.ModelAdapter;
import ai.lango.adk.models.ProviderCalls;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.tools.ToolCatalog;
import ai.lango.approval.Approvals;
import ai.lango.artifact.ArtifactStore;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.prompt.ContextSections;
import ai.lango.prompt.PromptBuilder;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.ModelCall;
import ai.lango.turn.Names;
import ai.lango.turn.Recall;
import ai.lango.turn.TurnContext;
import com.google.adk.agents.BaseAgent;
import com.google.adk.artifacts.BaseArtifactService;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.plugins.Plugin;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.BaseToolset;
import com.google.adk.tools.LoadMemoryTool;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The agent as configured, built once at start: the provider and model, the tools, the prompts, the remote
 * agents, one agent or the orchestrator over sub-agents. What it builds is a blueprint: each turn gets its own
 * ADK agent tree and runner from it ({@link #runner}), bound to that turn's {@link TurnContext} — its model
 * masks for the turn's caller, meters for its user and stops with it; its session writes are the turn's. Building
 * a tree costs microseconds; the tools, the prompts and the remote agents' cards are built once.
 */
@ApplicationScoped
public class Agents {

    /** What to set, as the README says it: the environment variables, and the keys they set. */
    public static final String NO_PROVIDER = "no model provider is configured: set "
            + Keys.PROVIDER.environmentVariable() + " (" + String.join(", ", ProviderCatalog.IDS) + "), "
            + Keys.MODEL_NAME.environmentVariable() + " and, for a hosted provider, LANGO_PROVIDERS_<ID>_API_KEY ("
            + Keys.PROVIDER + ", " + Keys.MODEL_NAME + ", " + ProviderCatalog.configKey("<id>", ProviderCatalog.API_KEY)
            + "), then start the server again";

    /** Where an operator's prompt sections replace the bundled ones, under the data directory. */
    static final String PROMPTS_DIR = "prompts";

    /** Reading a remote agent's card at start; an unreachable one must not hold the start up for long. */
    static final Duration CARD_TIMEOUT = Duration.ofSeconds(10);
    /** Per request to a remote agent: it runs a whole turn of its own. */
    static final Duration REMOTE_TIMEOUT = Duration.ofMinutes(2);

    private static final Logger LOG = MaskedLogs.of(Agents.class);

    @Inject
    LangoSettings settings;

    @Inject
    JpaSessionService sessions;

    @Inject
    ProviderCalls calls;

    @Inject
    ToolCatalog tools;

    /** The per-turn sections of the system prompt (memory, knowledge, …), asked at each model call. */
    @Inject
    ContextSections sections;

    /** What users' sessions remember, for ADK's memory service and its loadMemory tool. */
    @Inject
    Recall recall;

    @Inject
    Approvals approvals;

    /** Sessions' artifacts (screenshots), durable, for ADK's artifact service. */
    @Inject
    ArtifactStore artifacts;

    /** Where every model call's usage is priced. */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    /** Liberty's OpenTelemetry (mpTelemetry): a no-op until OTEL_SDK_DISABLED=false. */
    @Inject
    jakarta.enterprise.inject.Instance<io.opentelemetry.api.OpenTelemetry> openTelemetry;

    /** How a turn's tree is made, when a model is configured. */
    private volatile Blueprint blueprint;
    private volatile AgentInfo agentInfo;
    private volatile String promptsFingerprint = "";
    private volatile String unavailable = NO_PROVIDER;
    /** Set once start-up has built the agent (or found there is no model to build it for). */
    private volatile boolean started;

    void start(@Observes @Priority(200) @Initialized(ApplicationScoped.class) Object event) {
        // Spans and metrics go to Liberty's OpenTelemetry; every log line of a turn names its trace.
        ai.lango.telemetry.Telemetry.install(openTelemetry != null && openTelemetry.isResolvable() ? openTelemetry.get()
                : io.opentelemetry.api.OpenTelemetry.noop(), settings.telemetry().captureContent());
        MaskedLogs.tagWith(ai.lango.telemetry.Telemetry::traceId);
        build();
        started = true;
    }

    /** Whether start-up has built the agent (or found there is no model to build it for). */
    public boolean started() {
        return started;
    }

    /** Why turns cannot run, when no model is configured. */
    public Optional<String> unavailable() {
        return blueprint == null ? Optional.of(unavailable) : Optional.empty();
    }

    /** The agent tree, when a model is configured. */
    public Optional<AgentInfo> agents() {
        return Optional.ofNullable(agentInfo);
    }

    /** Which prompts the agent runs with (a hash of every section as loaded at start); empty before start. */
    public String promptsFingerprint() {
        return promptsFingerprint;
    }

    /** The version of ADK for Java this server runs, as ADK's API server reports it. */
    public String adkVersion() {
        return com.google.adk.Version.JAVA_ADK_VERSION;
    }

    /** The blueprint of the turns' agents, when a model is configured. */
    Optional<Blueprint> blueprint() {
        return Optional.ofNullable(blueprint);
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
        ModelAdapter llm = new ModelAdapter(model, provider, calls::open, limits.toolIoMaxChars(), callRecords());
        PromptBuilder prompts = PromptBuilder.load(settings.database().dataDir().resolve(PROMPTS_DIR));
        promptsFingerprint = prompts.fingerprint();
        List<RemoteAgent> remotes = limits.multiAgent() ? remoteAgents() : List.of();
        Blueprint built = new Blueprint(llm, adapted, tools.madeAtRunTime(), remotes, prompts, limits, sections,
                new JpaArtifactService(artifacts), new RecallMemoryService(recall),
                List.of(new DelegationGuard(limits.maxDelegationRounds())));
        BaseAgent agent = built.tree(TurnContext.detached(Names.DEFAULT_USER, null, true));
        sessions.rootAgentName(agent.name());
        agentInfo = AgentInfos.of(agent);
        blueprint = built;
        LOG.info(() -> "Lango agent " + agent.name() + " ready: provider " + chosen.id() + ", model " + model
                + ", tools " + adapted.stream().map(BaseTool::name).toList()
                + (agent.subAgents().isEmpty() ? "" : ", sub-agents " + agent.subAgents().stream().map(BaseAgent::name).toList()));
    }

    /**
     * How an agent's model call is written down: the counts the provider reported, or estimated from what was sent
     * (the messages, their tool calls and the tools' schemas) and answered when it reported none; priced.
     */
    private ModelAdapter.CallRecords callRecords() {
        if (ledger == null) {
            return ModelAdapter.CallRecords.NONE; // without the container (tests of the agents alone)
        }
        return (turn, agent, provider, model, request, answer, reported) -> {
            long input;
            long output;
            long cached = 0;
            if (reported != null) {
                input = reported.inputTokens();
                output = reported.outputTokens();
                cached = reported.cachedTokens();
            } else {
                input = ai.lango.usage.AsideCalls.estimatedInput(request, TokenEstimator::estimate);
                output = TokenEstimator.estimate(answer);
            }
            return ledger.call(turn.userId(), turn.sessionKey(), agent == null ? "" : agent, provider, model, ModelCall.AGENT,
                    input, output, cached, reported == null);
        };
    }

    /** lango.a2a.remote-agents, as sub-agents for the orchestrator; only multi-agent mode has a place for them. */
    private List<RemoteAgent> remoteAgents() {
        return RemoteAgent.load(settings.a2a().remoteAgents(), new A2aClient(CARD_TIMEOUT), new A2aClient(REMOTE_TIMEOUT),
                approvals);
    }

    /** How a turn's agent tree and ADK runner are made from what was built at start. */
    static final class Blueprint {
        private final ModelAdapter model;
        private final List<BaseTool> tools;
        private final List<BaseToolset> madeAtRunTime;
        private final List<RemoteAgent> remotes;
        private final PromptBuilder prompts;
        private final LangoSettings.AgentLimits limits;
        private final ContextSections sections;
        private final BaseArtifactService artifacts;
        private final BaseMemoryService memory;
        private final List<? extends Plugin> plugins;

        Blueprint(ModelAdapter model, List<BaseTool> tools, List<BaseToolset> madeAtRunTime, List<RemoteAgent> remotes,
                  PromptBuilder prompts, LangoSettings.AgentLimits limits, ContextSections sections,
                  BaseArtifactService artifacts, BaseMemoryService memory, List<? extends Plugin> plugins) {
            this.model = model;
            this.tools = List.copyOf(tools);
            this.madeAtRunTime = List.copyOf(madeAtRunTime);
            this.remotes = List.copyOf(remotes);
            this.prompts = prompts;
            this.limits = limits;
            this.sections = sections;
            this.artifacts = artifacts;
            this.memory = memory;
            this.plugins = plugins;
        }

        /** The agent tree of {@code turn}: its model bound to the turn, its remote agents its own (a tree owns its agents). */
        BaseAgent tree(TurnContext turn) {
            ModelAdapter bound = model.forTurn(turn);
            return limits.multiAgent()
                    ? AgentTree.orchestrator(bound, tools, madeAtRunTime, remotes.stream().<BaseAgent>map(RemoteAgent::anew).toList(),
                            prompts, limits.maxDelegationRounds(), sections::render)
                    : AgentTree.single(bound, tools, madeAtRunTime, prompts, sections::render);
        }

        /** ADK's runner for one run of {@code turn}, writing through {@code sessions}. */
        Runner runner(TurnContext turn, BaseSessionService sessions) {
            return Runner.builder().agent(tree(turn)).appName(Names.APP).sessionService(sessions).artifactService(artifacts)
                    .memoryService(memory).plugins(plugins).build();
        }
    }
}
