package ai.lango.tool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The one directory the file tools may touch. Paths are relative to it; `..`, absolute paths
 * outside it and symbolic links that lead out of it are refused.
 */
public final class Workspace {

    private final Path root;

    public Workspace(Path root) {
        try {
            Files.createDirectories(root);
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the workspace " + root, e);
        }
    }

    public Path root() {
        return root;
    }

    /** The real location of {@code path} inside the workspace, or a refusal naming the path. */
    public Path resolve(String path) throws ToolException {
        Path candidate;
        try {
            candidate = path == null || path.isBlank() ? root : root.resolve(path).normalize();
        } catch (InvalidPathException e) {
            throw new ToolException("\"" + path + "\" is not a valid path");
        }
        if (!candidate.startsWith(root)) {
            throw outside(path);
        }
        // Follow links: the nearest existing ancestor (or the path itself) must really be inside.
        Path existing = candidate;
        while (existing != null && !Files.exists(existing, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        try {
            if (existing != null && !existing.toRealPath().startsWith(root)) {
                throw outside(path);
            }
            if (Files.isSymbolicLink(candidate) && !candidate.toRealPath().startsWith(root)) {
                throw outside(path);
            }
        } catch (IOException e) {
            // A dangling link: refuse rather than guess where it would lead.
            throw outside(path);
        }
        return candidate;
    }

    /** A path as the model should see it: relative to the workspace. */
    public String relative(Path path) {
        String relative = root.relativize(path).toString();
        return relative.isEmpty() ? "." : relative;
    }

    private static ToolException outside(String path) {
        return new ToolException("path \"" + path + "\" is outside the workspace; use a path relative to the workspace");
    }
}
