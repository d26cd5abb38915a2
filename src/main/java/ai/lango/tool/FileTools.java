package ai.lango.tool;

import static ai.lango.tool.Args.integerProperty;
import static ai.lango.tool.Args.schema;
import static ai.lango.tool.Args.stringProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** fs_read, fs_list, fs_write, fs_edit, fs_mkdir, fs_delete: confined to the workspace. */
public final class FileTools {

    /** Larger files are refused by fs_read: a model's context is no place for them. */
    static final long MAX_READ_BYTES = 1024 * 1024;

    private static final Map<String, Object> PATH = stringProperty("path relative to the workspace");

    private FileTools() {
    }

    public static List<Tool> create(Workspace workspace) {
        return List.of(read(workspace), list(workspace), write(workspace), edit(workspace), mkdir(workspace),
                delete(workspace));
    }

    static Tool read(Workspace ws) {
        return new SimpleTool("fs_read", "Read a text file from the workspace.", schema(Map.of("path", PATH)), args -> {
                    Path file = existingFile(ws, Args.string(args, "path"));
                    if (Files.size(file) > MAX_READ_BYTES) {
                        throw new ToolException("file \"" + ws.relative(file) + "\" is " + Files.size(file)
                                + " bytes; fs_read reads at most " + MAX_READ_BYTES);
                    }
                    return Map.of("path", ws.relative(file), "content", Files.readString(file, StandardCharsets.UTF_8));
                });
    }

    static Tool list(Workspace ws) {
        return new SimpleTool("fs_list", "List a directory of the workspace (\".\" for its top).",
                schema(Map.of("path", PATH)), args -> {
                    Path dir = ws.resolve(Args.string(args, "path"));
                    if (!Files.isDirectory(dir)) {
                        throw new ToolException("\"" + args.get("path") + "\" is not a directory");
                    }
                    List<Map<String, Object>> entries = new ArrayList<>();
                    try (Stream<Path> children = Files.list(dir)) {
                        for (Path child : children.sorted().toList()) {
                            boolean isDir = Files.isDirectory(child);
                            entries.add(Map.of("name", child.getFileName().toString(), "type", isDir ? "dir" : "file",
                                    "size", isDir ? 0L : Files.size(child)));
                        }
                    }
                    return Map.of("path", ws.relative(dir), "entries", entries);
                });
    }

    static Tool write(Workspace ws) {
        return new SimpleTool("fs_write", "Write a text file in the workspace, replacing it; creates missing directories.",
                schema(Map.of("path", PATH, "content", stringProperty("the whole new content"))), args -> {
                    Path file = ws.resolve(Args.string(args, "path"));
                    String content = Args.string(args, "content");
                    if (Files.isDirectory(file)) {
                        throw new ToolException("\"" + args.get("path") + "\" is a directory");
                    }
                    Files.createDirectories(file.getParent());
                    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
                    Files.write(file, bytes);
                    return Map.of("path", ws.relative(file), "bytes", bytes.length);
                });
    }

    static Tool edit(Workspace ws) {
        return new SimpleTool("fs_edit",
                "Replace lines startLine..endLine (1-based, inclusive) of a file with content; "
                        + "endLine = startLine - 1 inserts before startLine.",
                schema(Map.of("path", PATH, "startLine", integerProperty("first line to replace, 1-based"),
                        "endLine", integerProperty("last line to replace, inclusive"),
                        "content", stringProperty("the replacement lines"))), args -> {
                    Path file = existingFile(ws, Args.string(args, "path"));
                    int start = Args.integer(args, "startLine");
                    int end = Args.integer(args, "endLine");
                    String content = Args.string(args, "content");
                    List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
                    if (start < 1 || start > lines.size() + 1 || end < start - 1 || end > lines.size()) {
                        throw new ToolException("lines " + start + ".." + end + " are not in \"" + ws.relative(file)
                                + "\", which has " + lines.size() + " lines");
                    }
                    lines.subList(start - 1, end).clear();
                    if (!content.isEmpty()) {
                        lines.addAll(start - 1, Arrays.asList(content.split("\n", -1)));
                    }
                    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
                    return Map.of("path", ws.relative(file), "lines", lines.size());
                });
    }

    static Tool mkdir(Workspace ws) {
        return new SimpleTool("fs_mkdir", "Create a directory (and its parents) in the workspace.",
                schema(Map.of("path", PATH)), args -> {
                    Path dir = ws.resolve(Args.string(args, "path"));
                    Files.createDirectories(dir);
                    return Map.of("path", ws.relative(dir), "created", true);
                });
    }

    static Tool delete(Workspace ws) {
        return new SimpleTool("fs_delete", "Delete a file or an empty directory of the workspace.",
                schema(Map.of("path", PATH)), args -> {
                    Path target = ws.resolve(Args.string(args, "path"));
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
                });
    }

    private static Path existingFile(Workspace ws, String path) throws ToolException, IOException {
        Path file = ws.resolve(path);
        if (!Files.exists(file)) {
            throw new ToolException("file \"" + path + "\" does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new ToolException("\"" + path + "\" is a directory; use fs_list");
        }
        return file;
    }
}
