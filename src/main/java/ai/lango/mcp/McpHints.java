package ai.lango.mcp;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What to do about a stdio server that failed to start, when its last lines on stderr (or its command)
 * say: the sandbox gives a process no network unless its entry says {@code "network": true}, and none
 * of the server's files but the system's folders and those its {@code "readOnly"} names.
 */
final class McpHints {

    /** What a process prints when it cannot reach the network (Node.js, npm, curl, Python, uv). */
    private static final Pattern NO_NETWORK = Pattern.compile("ENOTFOUND|EAI_AGAIN|ENETUNREACH|getaddrinfo|npm (ERR!|error) network"
            + "|Temporary failure in name resolution|Network is unreachable|Could not resolve host|Name or service not known"
            + "|dns error|Failed to fetch");
    /** bubblewrap could not find the command in the sandbox. */
    private static final Pattern NO_COMMAND = Pattern.compile("bwrap: execvp (\\S+): No such file or directory");
    /** A file the process looked for and did not find: Node.js's module, a path in an ENOENT or a shell's error. */
    private static final Pattern NOT_FOUND = Pattern.compile("Cannot find module '([^']+)'|ENOENT[^']*'(/[^']+)'"
            + "|(/[^\\s:'\"]+): No such file or directory|can't open file '(/[^']+)'");
    /** Commands that fetch the package they run from a registry when it is not installed. */
    private static final Set<String> FETCHERS = Set.of("npx", "pnpx", "bunx", "uvx", "pipx");

    private McpHints() {
    }

    /**
     * A hint for a server of {@code entry} that failed with {@code stderr} as its last lines, or none;
     * {@code onHost} says whether a path exists on this machine (outside the sandbox).
     */
    static Optional<String> of(McpServerEntry entry, List<String> stderr, Predicate<Path> onHost) {
        if (entry.transport() != McpServerEntry.Transport.STDIO) {
            return Optional.empty();
        }
        String said = String.join("\n", stderr);
        if (!entry.network() && NO_NETWORK.matcher(said).find()) {
            return Optional.of("its process tried to reach the network, and a stdio server's sandbox has none unless its"
                    + " entry says \"network\": true");
        }
        Matcher command = NO_COMMAND.matcher(said);
        if (command.find()) {
            return Optional.of("the command \"" + command.group(1) + "\" is not in the sandbox, which holds only the"
                    + " system's folders (/usr, /bin, /etc …) and those the entry's \"readOnly\" names: give the command's"
                    + " full path and name its folder in \"readOnly\"");
        }
        Matcher missing = NOT_FOUND.matcher(said);
        if (missing.find()) {
            String path = firstGroup(missing);
            if (!path.startsWith("/")) {
                return Optional.of("the module \"" + path + "\" is not found in the sandbox: name the folder the server is"
                        + " installed in (the one holding its node_modules) in the entry's \"readOnly\"");
            }
            if (onHost.test(Path.of(path)) && entry.readOnly().stream().noneMatch(folder -> Path.of(path).startsWith(folder))) {
                Path folder = Path.of(path).getParent() == null ? Path.of(path) : Path.of(path).getParent();
                return Optional.of(path + " is on this machine but outside the sandbox, which holds only the system's folders"
                        + " and the workspace: name its folder in the entry's \"readOnly\", e.g. \"readOnly\": [\"" + folder + "\"]");
            }
            return Optional.of(path + " is not on this machine either: check the entry's \"command\" and \"args\"");
        }
        String program = entry.command().map(c -> Path.of(c).getFileName().toString()).orElse("");
        if (!entry.network() && FETCHERS.contains(program)) {
            return Optional.of("\"" + program + "\" fetches its package from a registry when it starts, and the sandbox has"
                    + " no network: add \"network\": true to the entry, or install the package on this machine (npm install -g,"
                    + " uv tool install) and name its command instead");
        }
        return Optional.empty();
    }

    private static String firstGroup(Matcher matcher) {
        for (int i = 1; i <= matcher.groupCount(); i++) {
            if (matcher.group(i) != null) {
                return matcher.group(i);
            }
        }
        return matcher.group();
    }
}
