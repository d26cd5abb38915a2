package ai.lango.tool.fs;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** fs_mkdir: a directory of the workspace, with its parents. */
public final class MakeDirectory extends WorkspaceTool {

    public MakeDirectory(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_mkdir", Safety.MODERATE, "Create a directory (and its parents) in the workspace.",
                ToolArgs.schema(Map.of("path", FilePaths.PATH), List.of("path")), workspaces);
    }

    /** What it writes is kept: a secret's reference stays as text. */
    @Override
    public boolean keepsText() {
        return true;
    }

    /** A write into a dot-folder or dot-file (.git/, .ssh/, .bashrc, …) is dangerous: what runs there runs later, unasked. */
    @Override
    public Safety safety(Map<String, Object> args) {
        return FilePaths.hidden(args.get("path")) ? Safety.DANGEROUS : safety();
    }

    @Override
    protected Map<String, Object> callIn(Workspace ws, Map<String, Object> args) throws Exception {
        Path dir = ws.resolve(ToolArgs.anyText(args, "path"));
        Files.createDirectories(dir);
        return Map.of("path", ws.relative(dir), "created", true);
    }
}
