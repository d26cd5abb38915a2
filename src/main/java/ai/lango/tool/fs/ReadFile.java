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

/** fs_read: a text file of the workspace, or some of its lines. */
public final class ReadFile extends WorkspaceTool {

    /** Larger files are read in parts (startLine, endLine): a model's context is no place for them whole. */
    static final long MAX_READ_BYTES = 1024 * 1024;
    /** The most characters one call returns. */
    static final int MAX_READ_CHARS = 1024 * 1024;

    public ReadFile(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_read", Safety.SAFE, "Read a text file from the workspace, or its lines startLine..endLine"
                + " (1-based, inclusive) of a large one.", ToolArgs.schema(Map.of("path", FilePaths.PATH,
                "startLine", ToolArgs.integer("optional: the first line to read, 1-based"),
                "endLine", ToolArgs.integer("optional: the last line to read, inclusive")), List.of("path")), workspaces);
    }

    @Override
    protected Map<String, Object> callIn(Workspace ws, Map<String, Object> args) throws Exception {
        Path file = FilePaths.existingFile(ws, ToolArgs.anyText(args, "path"));
        if (!args.containsKey("startLine") && !args.containsKey("endLine")) {
            if (Files.size(file) > MAX_READ_BYTES) {
                int lines;
                try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    lines = LineCopy.count(in);
                }
                throw new ToolException("file \"" + ws.relative(file) + "\" is " + Files.size(file)
                        + " bytes; fs_read reads at most " + MAX_READ_BYTES + " at once: read it in parts with"
                        + " startLine and endLine (it has " + lines + " lines)");
            }
            return Map.of("path", ws.relative(file), "content", Files.readString(file, StandardCharsets.UTF_8));
        }
        int start = args.containsKey("startLine") ? ToolArgs.wholeNumber(args, "startLine") : 1;
        int end = args.containsKey("endLine") ? ToolArgs.wholeNumber(args, "endLine") : Integer.MAX_VALUE;
        if (start < 1 || end < start) {
            throw new ToolException("startLine must be 1 or more and endLine at least startLine");
        }
        StringBuilder content = new StringBuilder();
        int lines;
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines = LineCopy.stream(in, new LineCopy.Sink() {
                @Override
                public void character(int line, char c) throws ToolException {
                    if (line >= start && line <= end) {
                        append(c);
                    }
                }

                @Override
                public void lineEnd(int line) throws ToolException {
                    if (line >= start && line <= end) {
                        append('\n');
                    }
                }

                private void append(char c) throws ToolException {
                    if (content.length() == MAX_READ_CHARS) {
                        throw new ToolException("lines " + start + ".." + end + " of \"" + ws.relative(file)
                                + "\" hold more than " + MAX_READ_CHARS + " characters: read fewer lines");
                    }
                    content.append(c);
                }
            });
        }
        return Map.of("path", ws.relative(file), "content", content.toString(), "startLine", start,
                "endLine", Math.min(end, lines), "lines", lines);
    }
}
