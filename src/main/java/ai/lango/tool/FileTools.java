package ai.lango.tool;

import static ai.lango.tool.Args.integerProperty;
import static ai.lango.tool.Args.schema;
import static ai.lango.tool.Args.stringProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** fs_read, fs_list, fs_write, fs_edit, fs_mkdir, fs_delete: confined to the workspace. */
public final class FileTools {

    /** Larger files are read by fs_read in parts (startLine, endLine): a model's context is no place for them whole. */
    static final long MAX_READ_BYTES = 1024 * 1024;
    /** The most characters one fs_read returns. */
    static final int MAX_READ_CHARS = 1024 * 1024;
    /** The most entries one fs_list returns; the rest are counted. */
    static final int MAX_LIST_ENTRIES = 1000;

    private static final Map<String, Object> PATH = stringProperty("path relative to the workspace");

    private FileTools() {
    }

    public static List<Tool> create(Workspace workspace) {
        return List.of(read(workspace), list(workspace), write(workspace), edit(workspace), mkdir(workspace),
                delete(workspace));
    }

    static Tool read(Workspace ws) {
        return new SimpleTool("fs_read", "Read a text file from the workspace, or its lines startLine..endLine (1-based,"
                + " inclusive) of a large one.", Safety.SAFE, schema(Map.of("path", PATH,
                        "startLine", integerProperty("optional: the first line to read, 1-based"),
                        "endLine", integerProperty("optional: the last line to read, inclusive")), List.of("path")), args -> {
                    Path file = existingFile(ws, Args.string(args, "path"));
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
                    int start = args.containsKey("startLine") ? Args.integer(args, "startLine") : 1;
                    int end = args.containsKey("endLine") ? Args.integer(args, "endLine") : Integer.MAX_VALUE;
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
                });
    }

    static Tool list(Workspace ws) {
        return new SimpleTool("fs_list", "List a directory of the workspace (\".\" for its top).", Safety.SAFE,
                schema(Map.of("path", PATH)), args -> {
                    Path dir = ws.resolve(Args.string(args, "path"));
                    if (!Files.isDirectory(dir)) {
                        throw new ToolException("\"" + args.get("path") + "\" is not a directory");
                    }
                    List<Map<String, Object>> entries = new ArrayList<>();
                    int more = 0;
                    try (Stream<Path> children = Files.list(dir)) {
                        for (Path child : (Iterable<Path>) children.sorted()::iterator) {
                            if (entries.size() == MAX_LIST_ENTRIES) {
                                more++;
                                continue;
                            }
                            // The entry itself, never what a link points to: a dangling link or one that leads
                            // out of the workspace is listed as a link, with its own size, and nothing of its target.
                            BasicFileAttributes attributes;
                            try {
                                attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                            } catch (IOException gone) {
                                continue; // removed while listing
                            }
                            String type = attributes.isSymbolicLink() ? "link" : attributes.isDirectory() ? "dir" : "file";
                            entries.add(Map.of("name", child.getFileName().toString(), "type", type,
                                    "size", attributes.isDirectory() ? 0L : attributes.size()));
                        }
                    }
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("path", ws.relative(dir));
                    result.put("entries", entries);
                    if (more > 0) {
                        result.put("more", more + " entries not listed (at most " + MAX_LIST_ENTRIES + ")");
                    }
                    return result;
                });
    }

    static Tool write(Workspace ws) {
        return new SimpleTool("fs_write", "Write a text file in the workspace, replacing it; creates missing directories.", Safety.MODERATE,
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
                        + "endLine = startLine - 1 inserts before startLine.", Safety.MODERATE,
                schema(Map.of("path", PATH, "startLine", integerProperty("first line to replace, 1-based"),
                        "endLine", integerProperty("last line to replace, inclusive"),
                        "content", stringProperty("the replacement lines"))), args -> {
                    Path file = existingFile(ws, Args.string(args, "path"));
                    int start = Args.integer(args, "startLine");
                    int end = Args.integer(args, "endLine");
                    String content = Args.string(args, "content");
                    // Streamed, never read whole: a file of any size costs a buffer, not the heap.
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
                });
    }

    static Tool mkdir(Workspace ws) {
        return new SimpleTool("fs_mkdir", "Create a directory (and its parents) in the workspace.", Safety.MODERATE,
                schema(Map.of("path", PATH)), args -> {
                    Path dir = ws.resolve(Args.string(args, "path"));
                    Files.createDirectories(dir);
                    return Map.of("path", ws.relative(dir), "created", true);
                });
    }

    static Tool delete(Workspace ws) {
        return new SimpleTool("fs_delete", "Delete a file or an empty directory of the workspace.", Safety.DANGEROUS,
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
