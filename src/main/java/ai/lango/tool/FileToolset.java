package ai.lango.tool;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

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
        return Stream.<Function<Workspace, Tool>>of(FileTools::read, FileTools::list, FileTools::write, FileTools::edit,
                FileTools::mkdir, FileTools::delete).map(tool -> (Tool) new InCallersWorkspace(tool, settings)).toList();
    }

    @Override
    public int order() {
        return 10;
    }
}
