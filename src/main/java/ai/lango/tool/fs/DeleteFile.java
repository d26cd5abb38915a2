package ai.lango.tool.fs;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** fs_delete: a file or an empty directory of the workspace, never the workspace itself. */
public final class DeleteFile extends WorkspaceTool {

    public DeleteFile(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_delete", Safety.DANGEROUS, "Delete a file or an empty directory of the workspace.",
                ToolArgs.schema(Map.of("path", FilePaths.PATH), List.of("path")), workspaces);
    }

    @Override
    protected Map<String, Object> callIn(Workspace ws, Map<String, Object> args) throws Exception {
        Path target = ws.resolve(ToolArgs.anyText(args, "path"));
        if (target.equals(ws.root())) {
            throw new ToolException("the workspace itself cannot be deleted");
        }
        try {
            Files.delete(target);
        } catch (NoSuchFileException e) {
            throw new ToolException("\"" + args.get("path") + "\" does not exist");
        } catch (DirectoryNotEmptyException e) {
            throw new ToolException("directory \"" + args.get("path") + "\" is not empty");
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("path", ws.relative(target));
        result.put("deleted", true);
        return result;
    }
}
