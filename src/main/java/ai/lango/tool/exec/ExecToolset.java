package ai.lango.tool.exec;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import ai.lango.tool.WorkspaceTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** exec: shell commands in the caller's workspace, only with lango.tools.exec.enabled=true. */
@ApplicationScoped
public class ExecToolset implements Toolset {

    @Inject
    LangoSettings.ToolSettings settings;

    public ExecToolset() {
        // for CDI
    }

    public ExecToolset(LangoSettings.ToolSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "exec";
    }

    @Override
    public boolean enabled() {
        return settings.execEnabled();
    }

    @Override
    public List<Tool> tools() {
        return List.of(new ExecTool(WorkspaceTool.perCaller(settings), settings.execTimeout(), settings.execEnv(), System.getenv(),
                settings.execSandbox(), settings.execNetwork()));
    }

    @Override
    public int order() {
        return 20;
    }
}
