package ai.lango.adk;

import ai.lango.config.LangoSettings;
import ai.lango.tool.BuiltinTools;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolRunner;
import com.google.adk.tools.BaseTool;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;

/**
 * The tools the agent is given, each adapted to ADK once; calls run on the managed executor, and
 * their results have the configured secrets masked.
 */
@ApplicationScoped
public class ToolCatalog {

    /** Per-call bound for tools that do not declare their own. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    LangoSettings settings;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    private List<Tool> tools;
    private List<BaseTool> adapted;

    @PostConstruct
    void init() {
        LangoSettings.ToolSettings config = settings.tools();
        tools = BuiltinTools.create(config.workspace(), config.execEnabled(), config.execTimeout(), config.execEnv());
        ToolRunner runner = new ToolRunner(executor, DEFAULT_TIMEOUT, settings.secrets());
        adapted = tools.stream().<BaseTool>map(tool -> new ToolAdapter(tool, runner)).toList();
    }

    public List<Tool> tools() {
        return tools;
    }

    public List<BaseTool> adkTools() {
        return adapted;
    }
}
