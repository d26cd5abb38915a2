package ai.lango.mcp;

import ai.lango.masking.MaskedLogs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A stdio server: a process (already wrapped in its sandbox by the caller) that reads one JSON-RPC
 * message per line on stdin and writes one per line on stdout. A line that is not JSON is skipped
 * with a warning (a server that prints its banner to stdout); a line over {@link #MAX_MESSAGE_CHARS}
 * ends the transport without being held. What the server writes on stderr goes to the log, at most
 * {@link #STDERR_LINES} lines a minute, and its last lines (at most {@link #TAIL_LINES} and
 * {@link #TAIL_CHARS} characters, secrets masked) are kept for when it fails.
 */
final class StdioTransport implements McpTransport {

    private static final Logger LOG = MaskedLogs.of(StdioTransport.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What a server may write on stderr to the log, per minute. */
    static final int STDERR_LINES = 20;
    /** How much of the end of what a server wrote on stderr is kept, to say why it failed. */
    static final int TAIL_LINES = 20;
    static final int TAIL_CHARS = 4096;

    private final String server;
    private final List<String> commandLine;
    private final Map<String, String> environment;
    private final Path directory;
    /** A folder of the process's own, deleted once the process ended; null when none. */
    private final Path scratch;
    private Process process;
    private OutputStream stdin;
    private Thread errors;
    private final java.util.ArrayDeque<String> tail = new java.util.ArrayDeque<>();
    private int tailChars;
    private volatile boolean closed;
    /** Why the process's output ended, once it did: what a message sent after it is told. */
    private volatile String endedWhy;

    StdioTransport(String server, List<String> commandLine, Map<String, String> environment, Path directory) {
        this(server, commandLine, environment, directory, null);
    }

    /** The same, with a {@code scratch} folder made for the process alone, deleted once it ended. */
    StdioTransport(String server, List<String> commandLine, Map<String, String> environment, Path directory, Path scratch) {
        this.server = server;
        this.commandLine = List.copyOf(commandLine);
        this.environment = Map.copyOf(environment);
        this.directory = directory;
        this.scratch = scratch;
    }

    @Override
    public void start(Consumer<JsonNode> inbound, Consumer<String> ended) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(commandLine).directory(directory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        // The process is started by the thread that reads it, which lives as long as the process does: the
        // sandbox (bwrap --die-with-parent) dies with the thread that started it, and a pooled thread ends
        // when its pool shrinks, which killed a server that had started on one (exit 137, seen in McpIT).
        java.util.concurrent.CompletableFuture<Process> started = new java.util.concurrent.CompletableFuture<>();
        Thread reader = new Thread(() -> {
            Process running;
            try {
                running = builder.start();
            } catch (IOException | RuntimeException e) {
                started.completeExceptionally(e);
                return;
            }
            started.complete(running);
            readMessages(running, inbound, ended);
        }, "mcp-" + server + "-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            process = started.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the server's process", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
        }
        stdin = process.getOutputStream();
        errors = new Thread(() -> logErrors(process.getErrorStream()), "mcp-" + server + "-stderr");
        errors.setDaemon(true);
        errors.start();
    }

    private void readMessages(Process running, Consumer<JsonNode> inbound, Consumer<String> ended) {
        String why = "the server's process ended";
        try (InputStreamReader in = new InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                if (c != '\n') {
                    if (line.length() >= MAX_MESSAGE_CHARS) {
                        why = "the server wrote a message of more than " + MAX_MESSAGE_CHARS + " characters";
                        break;
                    }
                    line.append((char) c);
                    continue;
                }
                String text = line.toString().strip();
                line.setLength(0);
                if (text.isEmpty()) {
                    continue;
                }
                JsonNode message;
                try {
                    message = JSON.readTree(text);
                } catch (IOException notJson) {
                    LOG.warning(() -> "MCP server \"" + server + "\" wrote a line on stdout that is not JSON-RPC; skipped: "
                            + (text.length() > 200 ? text.substring(0, 200) + "…" : text));
                    continue;
                }
                inbound.accept(message);
            }
        } catch (IOException e) {
            why = "reading the server's output failed: " + e.getMessage();
        } catch (RuntimeException e) {
            why = "reading the server's output failed: " + e;
        }
        if (!closed) {
            String reason = why;
            Process ending = running; // not the field: a process that ends at once may end before the field is set
            try {
                if (ending.waitFor(200, TimeUnit.MILLISECONDS)) {
                    reason = why + " (exit code " + ending.exitValue() + ")";
                    Thread reading = errors;
                    if (reading != null) {
                        reading.join(500); // its last words on stderr, said before it ended, are what tells why
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            endedWhy = reason;
            close();
            ended.accept(reason);
        }
    }

    private void logErrors(InputStream err) {
        long windowStart = System.nanoTime();
        int logged = 0;
        boolean told = false;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
            char[] buffer = new char[4096];
            StringBuilder line = new StringBuilder();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != '\n' && line.length() < 1000) {
                        line.append(buffer[i]);
                        continue;
                    }
                    if (buffer[i] != '\n') {
                        continue; // the rest of a long line is dropped
                    }
                    if (System.nanoTime() - windowStart > TimeUnit.MINUTES.toNanos(1)) {
                        windowStart = System.nanoTime();
                        logged = 0;
                        told = false;
                    }
                    String text = line.toString();
                    line.setLength(0);
                    keep(text);
                    if (logged < STDERR_LINES) {
                        logged++;
                        LOG.info(() -> "MCP server \"" + server + "\": " + text);
                    } else if (!told) {
                        told = true;
                        LOG.info(() -> "MCP server \"" + server + "\" writes more on stderr than " + STDERR_LINES
                                + " lines a minute: the rest of this minute's is not logged");
                    }
                }
            }
            if (!line.isEmpty()) {
                keep(line.toString()); // a last line without its newline
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Keeps a line of stderr at the end of the tail, masked, dropping the oldest beyond the bounds. */
    private void keep(String line) {
        String masked = ai.lango.masking.SecretMask.mask(line);
        synchronized (tail) {
            tail.addLast(masked);
            tailChars += masked.length();
            while (tail.size() > TAIL_LINES || (tailChars > TAIL_CHARS && tail.size() > 1)) {
                tailChars -= tail.removeFirst().length();
            }
        }
    }

    /** The last lines the server wrote on stderr, oldest first, secrets masked; of an ended process, all it wrote. */
    @Override
    public List<String> stderr() {
        Process running = process;
        Thread reading = errors;
        if (running != null && reading != null && !running.isAlive()) {
            try {
                reading.join(500); // the pipe ends soon after the process: its last lines may still be on their way
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    @Override
    public synchronized void send(JsonNode message) throws IOException {
        if (closed || stdin == null) {
            throw new IOException(endedWhy != null ? endedWhy : "the server's process is not running");
        }
        try {
            stdin.write((message.toString() + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            Process running = process;
            try {
                if (running.waitFor(200, TimeUnit.MILLISECONDS)) { // "Stream closed" says less than why it closed
                    throw new IOException("the server's process ended (exit code " + running.exitValue() + ")", e);
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        closed = true;
        Process running = process;
        if (running == null) {
            deleteScratch();
            return;
        }
        try {
            running.getOutputStream().close();
        } catch (IOException e) {
            // gone already
        }
        running.descendants().forEach(ProcessHandle::destroyForcibly);
        running.destroyForcibly();
        running.onExit().thenRun(this::deleteScratch);
    }

    private void deleteScratch() {
        if (scratch == null || !Files.exists(scratch)) {
            return;
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            LOG.fine(() -> "MCP server \"" + server + "\": its scratch folder was not deleted: " + e.getMessage());
        }
    }
}
