package ai.lango.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Liberty server that a test starts with {@code bin/server start} in an environment of its own,
 * and can kill with SIGKILL: Arquillian's managed container can neither be killed nor restarted.
 * The server must exist (pom.xml creates it in pre-integration-test).
 */
final class LibertyServer implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    /**
     * A command of a test that runs servers of its own, at a lower priority than the rest of the run
     * (nice 10): the run lasts as long as its Arquillian classes, one after another on one server, and
     * these tests beside them take the CPU those leave (docs/operations.md, "Tests and their servers").
     */
    static List<String> besideTheChain(List<String> command) {
        List<String> niced = new ArrayList<>(List.of("nice", "-n", "10"));
        niced.addAll(command);
        return niced;
    }

    private final Path wlp;
    private final String name;
    private final int port;
    private final Map<String, String> environment;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread killOnExit;

    LibertyServer(Path wlp, String name, int port, Map<String, String> environment) {
        this.wlp = wlp.toAbsolutePath().normalize();
        this.name = name;
        this.port = port;
        this.environment = environment;
        // A test JVM that dies does not leave a server behind.
        this.killOnExit = new Thread(this::killQuietly, "kill " + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** What a copy leaves out of the integration tests' server: what it runs and what it writes. */
    private static final List<String> NOT_COPIED = List.of("workarea", "logs", "apps", "dropins", "configDropins");

    /**
     * A server of its own for a test: a copy of the integration tests' server's configuration
     * (it.server.name, made by the build; not its applications, work area or logs) under {@code
     * name}, to be started with {@code environment}. The configuration is the same for either database.
     */
    static LibertyServer copyOf(String name, int port, Map<String, String> environment) throws IOException {
        Path wlp = Path.of(System.getProperty("it.wlp", "target/liberty/wlp"));
        Path source = wlp.resolve("usr/servers/" + System.getProperty("it.server.name", "lango-it"));
        Path copy = wlp.resolve("usr/servers/" + name);
        // The running server changes its work area and logs while this copies: those are never entered.
        Files.walkFileTree(source, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes attributes)
                    throws IOException {
                Path relative = source.relativize(dir);
                if (NOT_COPIED.stream().anyMatch(relative::startsWith)) {
                    return java.nio.file.FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(copy.resolve(relative.toString()));
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attributes)
                    throws IOException {
                Files.copy(file, copy.resolve(source.relativize(file).toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return new LibertyServer(wlp, name, port, environment);
    }

    String name() {
        return name;
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Starts the server with the WAR the build produced and waits until the application answers ready. */
    void start() throws Exception {
        Path apps = wlp.resolve("usr/servers/" + name + "/apps");
        Files.createDirectories(apps);
        Path war = Path.of(System.getProperty("lango.war", "target/lango.war"));
        Path deployed = apps.resolve("lango.war");
        if (!Files.exists(deployed) || Files.getLastModifiedTime(deployed).compareTo(Files.getLastModifiedTime(war)) < 0) {
            Files.copy(war, deployed, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
        ProcessBuilder start = new ProcessBuilder(besideTheChain(List.of(wlp.resolve("bin/server").toString(), "start", name)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        start.environment().putAll(environment);
        Process process = start.start();
        if (!process.waitFor(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("server start " + name + " failed; see " + logs().resolve("messages.log"));
        }
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<Void> ready = http.send(HttpRequest.newBuilder(base().resolve("health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " did not become ready within " + READY_TIMEOUT + "; see "
                + logs().resolve("messages.log"));
    }

    /** How a server run in the foreground ended: its exit status and what it printed. */
    record Ended(int exit, String output) {
    }

    /**
     * Runs the server in the foreground ({@code server run}) with the WAR the build produced until it
     * ends by itself, as a start that is refused does; killed after {@code limit}.
     */
    Ended runUntilExit(Duration limit) throws Exception {
        Path apps = wlp.resolve("usr/servers/" + name + "/apps");
        Files.createDirectories(apps);
        Files.copy(Path.of(System.getProperty("lango.war", "target/lango.war")), apps.resolve("lango.war"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path output = Path.of("target", name + "-run.log");
        ProcessBuilder run = new ProcessBuilder(besideTheChain(List.of(wlp.resolve("bin/server").toString(), "run", name)))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        run.environment().putAll(environment);
        Process process = run.start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        return new Ended(process.isAlive() ? -1 : process.exitValue(), Files.readString(output));
    }

    /**
     * The server's JVM, while it runs: the process its pid file names, if that process is this
     * server's (pids are reused, 32,768 of them on some machines, and a stale file outlives its
     * server: another test's server must never be taken for this one, nor killed).
     */
    Optional<ProcessHandle> process() {
        try {
            Path pid = wlp.resolve("usr/servers/.pid/" + name + ".pid");
            return ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().commandLine().map(c -> c.contains(wlp.resolve("bin/tools/ws-server.jar").toString())
                            && c.matches(".*ws-server\\.jar " + java.util.regex.Pattern.quote(name) + "( .*)?")).orElse(false));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye. Returns once the process is gone. */
    void kill() throws Exception {
        ProcessHandle jvm = process().orElseThrow(() -> new IllegalStateException(name + " is not running"));
        jvm.destroyForcibly();
        jvm.onExit().get(30, TimeUnit.SECONDS);
    }

    /** {@code server stop}: the graceful way; returns when the command does. */
    Process stopAsync() throws IOException {
        // What the command said, for when a stop never reaches the server (target/<name>-stop.log). Not lowered
        // in priority: GracefulStopIT stops while a turn of seconds runs, and a niced stop's JVM reached the server after it.
        ProcessBuilder stop = new ProcessBuilder(wlp.resolve("bin/server").toString(), "stop", name)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", name + "-stop.log").toFile()));
        stop.environment().putAll(environment);
        return stop.start();
    }

    Path logs() {
        return wlp.resolve("usr/servers/" + name + "/logs");
    }

    private void killQuietly() {
        process().ifPresent(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        killQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
