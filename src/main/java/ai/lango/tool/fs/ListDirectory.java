package ai.lango.tool.fs;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/** fs_list: a directory of the workspace, its entries as they are (a link is listed as a link, never followed). */
public final class ListDirectory extends WorkspaceTool {

    /** The most entries one call returns; the rest are counted. */
    static final int MAX_LIST_ENTRIES = 1000;

    public ListDirectory(Function<Caller, Workspace> workspaces) {
        super(ToolFamily.FILES, "fs_list", Safety.SAFE, "List a directory of the workspace (\".\" for its top).",
                ToolArgs.schema(Map.of("path", FilePaths.PATH), List.of("path")), workspaces);
    }

    @Override
    protected Map<String, Object> callIn(Workspace ws, Map<String, Object> args) throws Exception {
        Path dir = ws.resolve(ToolArgs.anyText(args, "path"));
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
    }
}
