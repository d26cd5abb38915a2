package ai.lango.tool;

import static ai.lango.tool.Args.schema;
import static ai.lango.tool.Args.stringProperty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * exec: a shell command in the workspace, with a timeout that kills the whole process tree and
 * output capped so that an endless command cannot exhaust memory.
 */
final class ExecTool implements Tool {

    static final int OUTPUT_CAP = 64 * 1024;

    private final Workspace workspace;
    private final Duration timeout;

    ExecTool(Workspace workspace, Duration timeout) {
        this.workspace = workspace;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "exec";
    }

    @Override
    public String description() {
        return "Run a shell command in the workspace directory; returns its exit code and output (stdout and stderr).";
    }

    @Override
    public Map<String, Object> parameters() {
        return schema(Map.of("command", stringProperty("the command line, run with /bin/sh -c")));
    }

    @Override
    public SafetyLevel safety() {
        return SafetyLevel.DANGEROUS;
    }

    /** The command's own timeout governs; the runner's bound sits just above it. */
    @Override
    public Optional<Duration> timeout() {
        return Optional.of(timeout.plusSeconds(5));
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args) throws Exception {
        String command = Args.string(args, "command");
        Process process = new ProcessBuilder("/bin/sh", "-c", command)
                .directory(workspace.root().toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        CappedReader output = new CappedReader(process.getInputStream());
        Thread reader = new Thread(output, "exec-output");
        reader.setDaemon(true);
        reader.start();
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            if (process.isAlive()) {
                kill(process);
            }
        }
        reader.join(2_000);
        return Map.of("exitCode", finished ? process.exitValue() : -1, "output", output.text(), "timedOut", !finished);
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
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
