package ai.lango.tool.exec;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * exec: a shell command in the workspace, in a sandbox of its own ({@link ExecSandbox}), with output
 * capped so that an endless command cannot exhaust memory. The command gets a minimal environment,
 * never the server's own (which holds the provider keys and the access token): PATH, HOME, LANG, and
 * the variables the operator names in lango.tools.exec.env. It runs in a process group of its own
 * (setsid), and the whole group is killed when the command ends or times out, so a background child
 * cannot outlive it. The person asked to approve a command is shown the workspace's files changed
 * since the session's last approved command: a file the model planted for the command to read (a
 * .git/config that runs something) is on the card.
 */
public final class ExecTool extends WorkspaceTool {

    static final int OUTPUT_CAP = 64 * 1024;
    /** Where a command's PATH comes from when the server has none. */
    static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";
    private static final String SETSID = "/usr/bin/setsid";

    /** The changed files a card lists at most. */
    static final int MAX_CHANGED = 20;
    /** Entries of the workspace looked at, at most, to find them. */
    private static final int MAX_WALKED = 20_000;

    private final Duration timeout;
    private final List<String> passThrough;
    private final Map<String, String> serverEnv;
    private final ExecSandbox sandbox;

    /**
     * @param passThrough names of the server's environment variables a command also gets
     * @param serverEnv   the server's environment, read for PATH and the pass-through names only
     */
    public ExecTool(Function<Caller, Workspace> workspaces, Duration timeout, List<String> passThrough,
                    Map<String, String> serverEnv, Optional<java.nio.file.Path> bwrap, boolean network) {
        super(ToolFamily.EXEC, "exec", Safety.DANGEROUS, "Run a shell command in the workspace directory; returns its exit"
                + " code and output (stdout and stderr).", ToolArgs.schema(Map.of("command",
                ToolArgs.string("the command line, run with /bin/sh -c")), List.of("command")), workspaces);
        this.timeout = timeout;
        this.passThrough = List.copyOf(passThrough);
        this.serverEnv = serverEnv;
        this.sandbox = new ExecSandbox(bwrap, network);
    }

    /** Unsandboxed, for tests of what the command itself does. */
    ExecTool(Workspace workspace, Duration timeout) {
        this(WorkspaceTool.fixed(workspace), timeout, List.of(), System.getenv(), Optional.empty(), true);
    }

    /** A command that reaches the network may send anything anywhere; one in a sandbox without network, nowhere. */
    @Override
    public Optional<String> destination(Map<String, Object> args, Caller caller) {
        return sandbox.network() ? Optional.of("*") : Optional.empty();
    }

    /**
     * The workspace's files changed since the session's last approved command ({@code since}; every file
     * when there was none), newest first, for the person asked to approve this one.
     */
    @Override
    public Map<String, Object> approvalNotes(Map<String, Object> args, Caller caller, java.time.Instant since) {
        Path root = workspaceOf(caller).root();
        long after = since == null ? Long.MIN_VALUE : since.toEpochMilli();
        List<Map.Entry<String, Long>> changed = new java.util.ArrayList<>();
        int[] walked = {0};
        try (java.util.stream.Stream<Path> files = Files.walk(root)) {
            files.takeWhile(p -> walked[0]++ < MAX_WALKED).filter(p -> !p.equals(root)).forEach(p -> {
                try {
                    long modified = Files.getLastModifiedTime(p, java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis();
                    if (modified > after && !Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        changed.add(Map.entry(root.relativize(p).toString(), modified));
                    }
                } catch (IOException gone) {
                    // removed meanwhile
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            return Map.of("changedFiles", List.of(), "changedFilesNote", "the workspace could not be read: " + e.getMessage());
        }
        changed.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        Map<String, Object> notes = new java.util.LinkedHashMap<>();
        notes.put("changedFiles", changed.stream().limit(MAX_CHANGED).map(Map.Entry::getKey).toList());
        notes.put("changedFilesSince", since == null ? "the session's start" : since.toString());
        if (changed.size() > MAX_CHANGED) {
            notes.put("changedFilesMore", changed.size() - MAX_CHANGED);
        }
        return notes;
    }

    /** The whole environment a command sees. */
    static Map<String, String> environment(String home, List<String> passThrough, Map<String, String> serverEnv) {
        Map<String, String> env = new TreeMap<>();
        env.put("PATH", serverEnv.getOrDefault("PATH", DEFAULT_PATH));
        env.put("HOME", home);
        env.put("LANG", "C.UTF-8");
        for (String name : passThrough) {
            String value = serverEnv.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return Collections.unmodifiableMap(env);
    }

    /** The command's own timeout governs; the runner's bound sits just above it. */
    @Override
    public Optional<Duration> timeout() {
        return Optional.of(timeout.plusSeconds(5));
    }

    @Override
    protected Map<String, Object> callIn(Workspace workspace, Map<String, Object> args) throws Exception {
        String command = ToolArgs.anyText(args, "command");
        ProcessBuilder builder = new ProcessBuilder(commandLine(sandbox.wrap(workspace.root(), List.of("/bin/sh", "-c", command))))
                .directory(workspace.root().toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment(sandbox.home(workspace.root()), passThrough, serverEnv));
        Process process = builder.start();
        CappedReader output = new CappedReader(process.getInputStream());
        Thread reader = new Thread(output, "exec-output");
        reader.setDaemon(true);
        reader.start();
        boolean finished = false;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            // Ended or not, whatever the command left running in its group goes with it; then nothing holds the output
            // open, and the reader reads it to its end before the process is destroyed, which closes the stream (a
            // reader not yet scheduled when a quick command ended lost its whole output that way, under load).
            killGroup(process);
            reader.join(2_000);
            destroy(process);
        }
        return Map.of("exitCode", finished ? process.exitValue() : -1, "output", output.text(), "timedOut", !finished);
    }

    /**
     * The command (/bin/sh -c, or the sandbox around it) under setsid, so it leads a new process group whose id is its pid (a
     * JVM's child is never a group leader, so setsid starts no extra process). Without setsid
     * (not Linux) the shell runs in the server's group and only its descendants can be found.
     */
    static List<String> commandLine(List<String> command) {
        if (!Files.isExecutable(Path.of(SETSID))) {
            return command;
        }
        List<String> line = new java.util.ArrayList<>(List.of(SETSID));
        line.addAll(command);
        return line;
    }

    private static void killGroup(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        if (Files.isExecutable(Path.of(SETSID))) {
            try {
                // The shell's kill takes a negative pid as "the whole group"; a group already empty is fine.
                new ProcessBuilder("/bin/sh", "-c", "kill -KILL -" + process.pid() + " 2>/dev/null; true")
                        .redirectErrorStream(true).start().waitFor(2, TimeUnit.SECONDS);
            } catch (IOException e) {
                // no shell to send the signal: the descendants below still go
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.toHandle().destroyForcibly(); // the process, leaving its output stream open for the reader
    }

    private static void destroy(Process process) {
        process.destroyForcibly();
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps the first {@link #OUTPUT_CAP} bytes and counts (drains) the rest. */
    private static final class CappedReader implements Runnable {
        private final InputStream in;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private long omitted;

        CappedReader(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        int keep = (int) Math.max(0, Math.min(n, OUTPUT_CAP - kept.size()));
                        kept.write(buffer, 0, keep);
                        omitted += n - keep;
                    }
                }
            } catch (IOException e) {
                // the process was killed; what was read stays
            }
        }

        synchronized String text() {
            String text = kept.toString(StandardCharsets.UTF_8);
            return omitted == 0 ? text : text + "\n…[output truncated: " + omitted + " bytes omitted]";
        }
    }
}
