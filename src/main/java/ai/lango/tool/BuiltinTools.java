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
        Workspace workspace = new Workspace(workspaceRoot);
        List<Tool> tools = new ArrayList<>(FileTools.create(workspace));
        if (execEnabled) {
            tools.add(new ExecTool(workspace, execTimeout));
        }
        return List.copyOf(tools);
    }
}
