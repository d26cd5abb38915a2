package ai.lango.tool.fs;

import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** What the file tools share: the path parameter, and a path that must name an existing file. */
final class FilePaths {

    static final Map<String, Object> PATH = ToolArgs.string("path relative to the workspace");

    private FilePaths() {
    }

    /** Whether a path names a dot-folder or dot-file on its way (".git/config", ".ssh", "a/.config/x"). */
    static boolean hidden(Object path) {
        if (!(path instanceof String text)) {
            return false;
        }
        for (String segment : text.replace('\\', '/').split("/")) {
            if (segment.startsWith(".") && !segment.equals(".") && !segment.equals("..")) {
                return true;
            }
        }
        return false;
    }

    static Path existingFile(Workspace ws, String path) throws ToolException, IOException {
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
