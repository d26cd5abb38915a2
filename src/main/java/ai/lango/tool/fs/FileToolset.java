package ai.lango.tool.fs;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Function;

/** fs_read, fs_list, fs_write, fs_edit, fs_mkdir, fs_delete: always on, confined to the caller's workspace. */
@ApplicationScoped
public class FileToolset implements Toolset {

    @Inject
    LangoSettings.ToolSettings settings;

    public FileToolset() {
        // for CDI
    }

    public FileToolset(LangoSettings.ToolSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "fs";
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public List<Tool> tools() {
        return tools(WorkspaceTool.perCaller(settings));
    }

    /** The file tools, each call in the workspace {@code workspaces} gives its caller. */
    public static List<Tool> tools(Function<Caller, Workspace> workspaces) {
        return List.of(new ReadFile(workspaces), new ListDirectory(workspaces), new WriteFile(workspaces),
                new EditFile(workspaces), new MakeDirectory(workspaces), new DeleteFile(workspaces));
    }

    @Override
    public int order() {
        return 10;
    }
}
