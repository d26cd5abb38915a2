package ai.lango.tool;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** fs_read, fs_list, fs_write, fs_edit, fs_mkdir, fs_delete: always on, confined to the workspace. */
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
        return FileTools.create(new Workspace(settings.workspace()));
    }

    @Override
    public int order() {
        return 10;
    }
}
