package ai.lango.adk.tools;

import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.tool.Caller;
import ai.lango.tool.References;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.ToolRunner;
import ai.lango.tool.ToolSource;
import ai.lango.tool.Toolset;
import com.google.adk.tools.BaseToolset;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.LoadMemoryTool;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.stream.StreamSupport;

/**
 * The tools the agent is given: those of every enabled {@link Toolset}, each adapted to ADK once;
 * calls run on the managed executor with {@code {{secret:NAME}}} references resolved, and their results
 * have every known secret masked (see ToolRunner).
 */
@ApplicationScoped
public class ToolCatalog {

    /** Per-call bound for tools that do not declare their own. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    LangoSettings settings;

    @Inject
    @Any
    Instance<Toolset> toolsets;

    @Inject
    @Any
    Instance<ToolSource> sources;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Inject
    Approvals approvals;

    @Inject
    References references;

    private List<BaseTool> adapted;
    private List<BaseToolset> made = List.of();

    @PostConstruct
    void init() {
        ApprovalGate gate = new ApprovalGate(settings.approval(), approvals);
        adapted = adapt(StreamSupport.stream(toolsets.spliterator(), false).toList(), executor, references, gate);
        ToolRunner runner = new ToolRunner(executor, DEFAULT_TIMEOUT, references);
        made = StreamSupport.stream(sources.spliterator(), false)
                .<BaseToolset>map(source -> new SourcedToolset(source, tool -> new ToolAdapter(tool, runner, gate)))
                .toList();
        if (settings.approval().policy() == LangoSettings.Approval.Policy.NONE && settings.tools().execEnabled()) {
            MaskedLogs.of(ToolCatalog.class).warning(() -> "exec is enabled and "
                    + ai.lango.config.Keys.APPROVAL_POLICY + "=none: the model runs commands without asking anyone");
        }
    }

    /** The tools of the enabled toolsets, in order, adapted to ADK; calls run on {@code executor}, none asks for approval. */
    public static List<BaseTool> adapt(List<Toolset> toolsets, ExecutorService executor) {
        return adapt(toolsets, executor, References.NONE, ApprovalGate.OPEN);
    }

    private static List<BaseTool> adapt(List<Toolset> toolsets, ExecutorService executor, References references,
                                        ApprovalGate gate) {
        ToolRunner runner = new ToolRunner(executor, DEFAULT_TIMEOUT, references);
        return toolsets.stream().filter(Toolset::enabled)
                .sorted(Comparator.comparingInt(Toolset::order).thenComparing(Toolset::name))
                .flatMap(toolset -> toolset.tools().stream())
                .<BaseTool>map(tool -> new ToolAdapter(tool, runner, gate)).toList();
    }

    /** A catalog of these tools, for code that runs without the container. */
    static ToolCatalog of(List<BaseTool> tools) {
        ToolCatalog catalog = new ToolCatalog();
        catalog.adapted = List.copyOf(tools);
        return catalog;
    }

    public List<BaseTool> adkTools() {
        return adapted;
    }

    /** The toolsets of tools made at run time (MCP servers'), asked at every model call; they belong to the executor. */
    public List<BaseToolset> madeAtRunTime() {
        return made;
    }

    /**
     * How safe a call a crash cut off is to run again: {@link Safety#SAFE} (it runs again without a person) only when
     * its tool only reads ({@link Safety#SAFE}, an MCP tool's readOnlyHint) and the call carries no secret; a tool this
     * server does not know is {@link Safety#DANGEROUS}.
     */
    public Safety safetyOfCut(String tool, Map<String, Object> args, Caller caller) {
        if (READ_ONLY_ADK_TOOLS.contains(tool)) {
            return Safety.SAFE;
        }
        java.util.stream.Stream<Tool> known = java.util.stream.Stream.concat(
                StreamSupport.stream(toolsets.spliterator(), false).filter(Toolset::enabled).flatMap(t -> t.tools().stream()),
                StreamSupport.stream(sources.spliterator(), false).flatMap(source -> source.tools(caller.turn().userId()).stream()));
        return known.filter(t -> t.name().equals(tool)).findFirst().map(t -> {
            try {
                return references.inspect(t, args, caller).any() ? Safety.DANGEROUS : t.safety(args);
            } catch (ToolException refused) {
                return Safety.DANGEROUS;
            }
        }).orElse(Safety.DANGEROUS);
    }

    /** ADK's own tools the agents hold that only read or hand over: recalling memories, a delegation. */
    private static final java.util.Set<String> READ_ONLY_ADK_TOOLS = java.util.Set.of("load_memory", "transfer_to_agent");

    /** The family of a tool the agent holds: a Lango tool's own; ADK's loadMemory recalls memories. */
    public static ToolFamily familyOf(BaseTool tool) {
        if (tool instanceof ToolAdapter adapted) {
            return adapted.family();
        }
        if (tool instanceof LoadMemoryTool) {
            return ToolFamily.MEMORY;
        }
        throw new IllegalArgumentException("the tool " + tool.name() + " has no family: a Lango tool declares one");
    }
}
