package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Starts that must end before Liberty listens, on a Liberty server of their own (named
 * it.server.name + "-guard", on port it.http.port + 2) running the built WAR: Liberty opens its port
 * by itself once the applications have started, so the proof is that the port never answers
 * while the server runs, and that the server process ends with Lango's reason.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT)
class StartGuardIT {

    private static final Path WLP = Path.of("target", "liberty", "wlp");
    private static final String NAME = ItDatabase.HSQLDB.server("guard");
    private static final int PORT = Integer.parseInt(System.getProperty("it.http.port", "19080")) + 2;

    @BeforeAll
    static void createServer() throws IOException {
        Path template = WLP.resolve("usr/servers").resolve(System.getProperty("it.server.name", "lango-it"));
        Path server = WLP.resolve("usr/servers").resolve(NAME);
        if (Files.exists(server)) {
            try (Stream<Path> old = Files.walk(server)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(server);
        for (String part : List.of("server.xml", "server.env", "jvm.options", "db", "lib")) {
            copy(template.resolve(part), server.resolve(part));
        }
        Files.createDirectories(server.resolve("apps"));
        Files.copy(Path.of(System.getProperty("lango.war", "target/lango.war")), server.resolve("apps/lango.war"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.exists(from)) {
            return;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** Runs the server in the foreground until it ends; whether its port ever answered, and its output. */
    private static Run run(Map<String, String> env, String log) throws Exception {
        Path output = Path.of("target", log);
        ProcessBuilder builder = new ProcessBuilder(WLP.resolve("bin/server").toString(), "run", NAME)
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().remove("LANGO_AUTH_TOKEN");
        builder.environment().put("LANGO_HTTP_PORT", String.valueOf(PORT));
        builder.environment().put("LANGO_DATA_DIR", Path.of("target", "it-data-guard").toAbsolutePath().toString());
        builder.environment().putAll(env);
        Process server = builder.start();
        boolean answered = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (server.isAlive() && System.nanoTime() < deadline) {
            answered |= answers(PORT);
            Thread.sleep(50);
        }
        if (server.isAlive()) {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        return new Run(server.exitValue(), answered, Files.readString(output));
    }

    private record Run(int exit, boolean answered, String output) {
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void bindingBeyondLoopbackWithoutATokenNeverListens() throws Exception {
        Run run = run(Map.of("LANGO_HTTP_HOST", "0.0.0.0"), "start-guard-unsafe.log");
        assertFalse(run.answered(), "the port answered while the server ran:\n" + run.output());
        assertTrue(run.output().contains("lango.http.host is \"0.0.0.0\", which is reachable from other machines"), run.output());
        assertFalse(run.output().contains("CWWKO0219I"), "Liberty never opened its HTTP port:\n" + run.output());
        assertEquals(1, run.exit(), run.output());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aMistypedSettingEndsTheServerWithOneLineNamingTheKeyToFix() throws Exception {
        Run run = run(Map.of("LANGO_PROVIDER", "openia"), "start-guard-invalid.log");
        assertFalse(run.answered(), "the port answered while the server ran:\n" + run.output());
        String line = "lango.provider (LANGO_PROVIDER) has the invalid value \"openia\"; accepted: openai, anthropic, gemini, ollama";
        assertTrue(run.output().contains(line), run.output());
        assertEquals(1, run.output().lines().filter(l -> l.contains("LANGO_PROVIDER")).count(), "said once:\n" + run.output());
        assertFalse(run.output().contains("\tat ") || run.output().contains("FFDC"), "no stack trace, no FFDC report:\n" + run.output());
        assertEquals(1, run.exit(), run.output());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aPortThatIsNoNumberFailsServerStartAsLibertyStartUsesItAndLeavesNoJvm() throws Exception {
        Path messages = WLP.resolve("usr/servers").resolve(NAME).resolve("logs/messages.log");
        Files.deleteIfExists(messages);
        // what mvn liberty:start runs: it fails the build when this fails
        ProcessBuilder builder = new ProcessBuilder(WLP.resolve("bin/server").toString(), "start", NAME)
                .redirectErrorStream(true).redirectOutput(Path.of("target", "start-guard-port.log").toFile());
        builder.environment().remove("LANGO_AUTH_TOKEN");
        builder.environment().put("LANGO_HTTP_PORT", "abc");
        builder.environment().put("LANGO_DATA_DIR", Path.of("target", "it-data-guard").toAbsolutePath().toString());
        Process start = builder.start();
        assertTrue(start.waitFor(240, TimeUnit.SECONDS), "server start came back");
        String said = Files.readString(Path.of("target", "start-guard-port.log"));
        assertTrue(start.exitValue() != 0, "server start failed: exit " + start.exitValue() + "\n" + said);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (jvmOfThisServer() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(jvmOfThisServer(), "no JVM of the server is left running");
        String log = Files.readString(messages);
        assertEquals(1, log.lines().filter(l -> l.contains("lango.http.port (LANGO_HTTP_PORT) has the invalid value \"abc\"; accepted:"))
                .count(), "Lango's line, once, in messages.log:\n" + log);
        assertFalse(log.contains("\tat "), "no stack trace:\n" + log);
    }

    private static boolean jvmOfThisServer() {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().map(c -> c.matches(".*ws-server\\.jar " + NAME + "( .*)?"))
                .orElse(false));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aSecondServerOnATakenPortSaysSoAndEndsWithoutTouchingTheFirst() throws Exception {
        try (ServerSocket first = new ServerSocket(PORT, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!first.isClosed()) {
                    try {
                        first.accept().close(); // the probes of run() must not fill its backlog
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Run run = run(Map.of(), "start-guard-port-taken.log");
            assertTrue(run.output().contains("a server already runs on port " + PORT), run.output());
            assertEquals(1, run.exit(), run.output());
            assertFalse(first.isClosed());
            assertTrue(answers(PORT), "the first still has its port");
        }
    }
}
