package ai.lango.tool;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The built-in tools: the file tools always, exec only when it is enabled. */
public final class BuiltinTools {

    private BuiltinTools() {
    }

    public static List<Tool> create(Path workspaceRoot, boolean execEnabled, Duration execTimeout) {
        return create(workspaceRoot, execEnabled, execTimeout, List.of());
    }

    /** @param execEnv names of the server's environment variables that exec passes to its commands */
    public static List<Tool> create(Path workspaceRoot, boolean execEnabled, Duration execTimeout, List<String> execEnv) {
        Workspace workspace = new Workspace(workspaceRoot);
        List<Tool> tools = new ArrayList<>(FileTools.create(workspace));
        if (execEnabled) {
            tools.add(new ExecTool(workspace, execTimeout, execEnv, System.getenv()));
        }
        return List.copyOf(tools);
    }
}
