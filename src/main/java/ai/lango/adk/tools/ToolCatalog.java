package ai.lango.adk.tools;

import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.tool.References;
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
