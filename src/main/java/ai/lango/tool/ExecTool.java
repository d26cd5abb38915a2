package ai.lango.tool;

import static ai.lango.tool.Args.schema;
import static ai.lango.tool.Args.stringProperty;

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

/**
 * exec: a shell command in the workspace, with output capped so that an endless command cannot
 * exhaust memory. The command gets a minimal environment, never the server's own (which holds the
 * provider keys and the access token): PATH, HOME (the workspace), LANG, and the variables the
 * operator names in lango.tools.exec.env. It runs in a process group of its own (setsid), and the
 * whole group is killed when the command ends or times out, so a background child cannot outlive it.
 */
final class ExecTool implements Tool {

    static final int OUTPUT_CAP = 64 * 1024;
    /** Where a command's PATH comes from when the server has none. */
    static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";
    private static final String SETSID = "/usr/bin/setsid";

    private final Workspace workspace;
    private final Duration timeout;
    private final Map<String, String> environment;

    ExecTool(Workspace workspace, Duration timeout) {
        this(workspace, timeout, List.of(), System.getenv());
    }

    /**
     * @param passThrough names of the server's environment variables a command also gets
     * @param serverEnv   the server's environment, read for PATH and the pass-through names only
     */
    ExecTool(Workspace workspace, Duration timeout, List<String> passThrough, Map<String, String> serverEnv) {
        this.workspace = workspace;
        this.timeout = timeout;
        this.environment = environment(workspace, passThrough, serverEnv);
    }

    /** The whole environment a command sees. */
    static Map<String, String> environment(Workspace workspace, List<String> passThrough, Map<String, String> serverEnv) {
        Map<String, String> env = new TreeMap<>();
        env.put("PATH", serverEnv.getOrDefault("PATH", DEFAULT_PATH));
        env.put("HOME", workspace.root().toString());
        env.put("LANG", "C.UTF-8");
        for (String name : passThrough) {
            String value = serverEnv.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return Collections.unmodifiableMap(env);
    }

    Map<String, String> environment() {
        return environment;
    }

    @Override
    public String name() {
        return "exec";
    }

    @Override
    public Safety safety() {
        return Safety.DANGEROUS;
    }

    @Override
    public String description() {
        return "Run a shell command in the workspace directory; returns its exit code and output (stdout and stderr).";
    }

    @Override
    public Map<String, Object> parameters() {
        return schema(Map.of("command", stringProperty("the command line, run with /bin/sh -c")));
    }

    /** The command's own timeout governs; the runner's bound sits just above it. */
    @Override
    public Optional<Duration> timeout() {
        return Optional.of(timeout.plusSeconds(5));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args) throws Exception {
        String command = Args.string(args, "command");
        ProcessBuilder builder = new ProcessBuilder(commandLine(command))
                .directory(workspace.root().toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        CappedReader output = new CappedReader(process.getInputStream());
        Thread reader = new Thread(output, "exec-output");
        reader.setDaemon(true);
        reader.start();
        boolean finished = false;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            // Ended or not, whatever the command left running in its group goes with it.
            killGroup(process);
        }
        reader.join(2_000);
        return Map.of("exitCode", finished ? process.exitValue() : -1, "output", output.text(), "timedOut", !finished);
    }

    /**
     * /bin/sh -c under setsid, so the command leads a new process group whose id is its pid (a
     * JVM's child is never a group leader, so setsid starts no extra process). Without setsid
     * (not Linux) the shell runs in the server's group and only its descendants can be found.
     */
    static List<String> commandLine(String command) {
        return Files.isExecutable(Path.of(SETSID))
                ? List.of(SETSID, "/bin/sh", "-c", command)
                : List.of("/bin/sh", "-c", command);
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
