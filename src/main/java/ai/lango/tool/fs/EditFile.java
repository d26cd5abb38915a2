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
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** fs_edit: lines of a file replaced (or inserted), streamed so that a file of any size costs a buffer, not the heap. */
public final class EditFile extends WorkspaceTool {

    public EditFile(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_edit", Safety.MODERATE, "Replace lines startLine..endLine (1-based, inclusive) of a file"
                + " with content; endLine = startLine - 1 inserts before startLine.", ToolArgs.schema(Map.of("path", FilePaths.PATH,
                "startLine", ToolArgs.integer("first line to replace, 1-based"),
                "endLine", ToolArgs.integer("last line to replace, inclusive"),
                "content", ToolArgs.string("the replacement lines")), List.of("content", "endLine", "path", "startLine")),
                workspaces);
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
        Path file = FilePaths.existingFile(ws, ToolArgs.anyText(args, "path"));
        int start = ToolArgs.wholeNumber(args, "startLine");
        int end = ToolArgs.wholeNumber(args, "endLine");
        String content = ToolArgs.anyText(args, "content");
        int lines;
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines = LineCopy.count(in);
        }
        if (start < 1 || start > lines + 1 || end < start - 1 || end > lines) {
            throw new ToolException("lines " + start + ".." + end + " are not in \"" + ws.relative(file)
                    + "\", which has " + lines + " lines");
        }
        Path edited = Files.createTempFile(file.getParent(), ".lango-edit-", ".tmp");
        try {
            try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                 var out = Files.newBufferedWriter(edited, StandardCharsets.UTF_8)) {
                LineCopy.replace(in, out, start, end, content);
            }
            Files.move(edited, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(edited);
        }
        int removed = end - start + 1;
        int added = content.isEmpty() ? 0 : content.split("\n", -1).length;
        return Map.of("path", ws.relative(file), "lines", lines - removed + added);
    }
}
