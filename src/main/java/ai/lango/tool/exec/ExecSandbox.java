package ai.lango.tool.exec;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a command runs: in a bubblewrap sandbox of its own, or (lango.tools.exec.sandbox=none, unsafe)
 * as the server. The sandbox has its own processes ({@code /proc} shows only them), no network unless
 * allowed, the system's folders read-only, the caller's workspace the only folder it may write, a
 * fresh {@code HOME} and {@code /tmp}, no capabilities, and nothing of the server's: not its files
 * (the data directory, the server directory, home folders are not there at all; the system's keys and
 * services' configuration are hidden), not its environment.
 */
public final class ExecSandbox {

    /** Where HOME is inside the sandbox: a folder of its own, gone with the command. */
    public static final String HOME = "/home/lango";
    /** The system's folders a command reads (a merged /usr's top-level links are recreated as links). */
    private static final List<String> SYSTEM = List.of("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");

    /**
     * What of the system's folders holds keys rather than what a command needs: hidden behind an empty
     * file or folder (a server that runs as root could otherwise read them, its own uid owning them).
     */
    private static final List<String> HIDDEN_FILES = List.of("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
            "/etc/sudoers", "/etc/machine-id");
    private static final List<String> HIDDEN_FOLDERS = List.of("/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d",
            "/etc/postgresql", "/etc/postgresql-common", "/etc/mysql", "/etc/redis", "/etc/rabbitmq", "/etc/letsencrypt");

    private final Optional<Path> bwrap;
    private final boolean network;

    /** @param bwrap the bubblewrap binary; empty: no sandbox */
    public ExecSandbox(Optional<Path> bwrap, boolean network) {
        this.bwrap = bwrap;
        this.network = network;
    }

    static ExecSandbox none() {
        return new ExecSandbox(Optional.empty(), true);
    }

    public boolean sandboxed() {
        return bwrap.isPresent();
    }

    /** Whether a command reaches the network: in the sandbox only when allowed; without one, always. */
    public boolean network() {
        return network;
    }

    /** What HOME is for a command in {@code workspace}. */
    public String home(Path workspace) {
        return sandboxed() ? HOME : workspace.toString();
    }

    /**
     * What of the server's files a sandboxed process may write: {@code folder}, seen inside at
     * {@code shownAt} (an empty scratch folder can stand where a workspace is, so that a program given
     * the workspace's path still finds a folder there), and the folders {@code hidden} under it seen
     * empty (what is written there is gone with the process).
     */
    public record Writable(Path folder, Path shownAt, List<Path> hidden) {

        public Writable {
            hidden = List.copyOf(hidden);
        }

        /** {@code folder} where it is, all of it. */
        public static Writable of(Path folder) {
            return new Writable(folder, folder, List.of());
        }
    }

    /** The command line that runs {@code shell} (e.g. /bin/sh -c command) in {@code workspace}, sandboxed or not. */
    public List<String> wrap(Path workspace, List<String> shell) {
        return wrap(Writable.of(workspace), List.of(), workspace, shell);
    }

    /**
     * The same for a {@code writable} folder, with {@code readOnly} folders of the server's visible too (a
     * program's installation outside the system's folders: an MCP server's node_modules), starting in
     * {@code directory} (as seen inside). Without a sandbox, the command line is {@code shell} alone: the
     * caller starts it in the folder on the host.
     */
    public List<String> wrap(Writable writable, List<Path> readOnly, Path directory, List<String> shell) {
        if (bwrap.isEmpty()) {
            return shell;
        }
        // --die-with-parent: the sandbox dies with the *thread* that started it (PR_SET_PDEATHSIG), so a process
        // that outlives its call is started by a thread of its own (StdioTransport)
        List<String> line = new ArrayList<>(List.of(bwrap.get().toString(), "--die-with-parent", "--new-session",
                "--unshare-all", "--cap-drop", "ALL"));
        if (network) {
            line.add("--share-net");
        }
        for (String folder : SYSTEM) {
            Path path = Path.of(folder);
            if (Files.isSymbolicLink(path)) {
                try {
                    line.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), folder));
                } catch (java.io.IOException e) {
                    // unreadable link: left out
                }
            } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                line.addAll(List.of("--ro-bind", folder, folder));
            }
        }
        for (String file : HIDDEN_FILES) {
            if (Files.isRegularFile(Path.of(file), LinkOption.NOFOLLOW_LINKS)) {
                line.addAll(List.of("--ro-bind", "/dev/null", file));
            }
        }
        for (String folder : HIDDEN_FOLDERS) {
            if (Files.isDirectory(Path.of(folder), LinkOption.NOFOLLOW_LINKS)) {
                line.addAll(List.of("--tmpfs", folder));
            }
        }
        line.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/home", "--dir", HOME,
                "--tmpfs", "/run"));
        for (Path folder : readOnly) {
            line.addAll(List.of("--ro-bind", folder.toString(), folder.toString()));
        }
        line.addAll(List.of("--bind", writable.folder().toString(), writable.shownAt().toString()));
        for (Path folder : writable.hidden()) {
            line.addAll(List.of("--tmpfs", folder.toString())); // after the bind, so over it
        }
        line.addAll(List.of("--chdir", directory.toString(), "--hostname", "lango-exec", "--"));
        line.addAll(shell);
        return line;
    }
}
