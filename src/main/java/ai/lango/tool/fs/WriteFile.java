package ai.lango.tool.fs;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** fs_write: a text file of the workspace, written whole. */
public final class WriteFile extends WorkspaceTool {

    public WriteFile(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_write", Safety.MODERATE, "Write a text file in the workspace, replacing it; creates missing"
                + " directories.", ToolArgs.schema(Map.of("path", FilePaths.PATH,
                "content", ToolArgs.string("the whole new content")), List.of("content", "path")), workspaces);
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
        Path file = ws.resolve(ToolArgs.anyText(args, "path"));
        String content = ToolArgs.anyText(args, "content");
        if (Files.isDirectory(file)) {
            throw new ToolException("\"" + args.get("path") + "\" is a directory");
        }
        Files.createDirectories(file.getParent());
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);
        return Map.of("path", ws.relative(file), "bytes", bytes.length);
    }
}
