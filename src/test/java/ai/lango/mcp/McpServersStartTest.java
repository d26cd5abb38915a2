package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Tool;
import ai.lango.vault.SecretReferences;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a stdio server's start goes wrong and what is shown of it: its last lines on stderr (bounded) and a
 * hint, pauses that double, then {@code failed} after lango.mcp.start-attempts, a restart that starts
 * counting again; and a turn that waits for a server still starting, for lango.mcp.start-wait at most.
 * Real processes, without the sandbox (the sandbox's part is McpServersSandboxTest's and McpStartIT's).
 */
class McpServersStartTest {

    private static final Path NODE = Path.of("/usr/bin/node");
    private static final Path SLOW = Path.of("src/test/resources/mcp/slow-server.mjs").toAbsolutePath();

    @TempDir
    Path dir;

    private McpServers servers;
    /** The retries the servers asked for, with their pauses in ms; run by the test when it wants. */
    private final List<Runnable> retries = new CopyOnWriteArrayList<>();
    private final List<Long> pauses = new CopyOnWriteArrayList<>();

    /** McpServers without a sandbox; connections start on threads of their own, retries wait for the test. */
    private McpServers servers(int attempts, Duration startWait) throws Exception {
        servers = new McpServers();
        servers.settings = new LangoSettings.Mcp(dir.resolve("mcp.json"), Duration.ofSeconds(5), startWait, attempts, true);
        servers.toolSettings = new LangoSettings.ToolSettings(Files.createDirectories(dir.resolve("workspace")), false,
                Duration.ofSeconds(30), List.of(), false, Optional.empty(), false);
        servers.secrets = new SecretReferences();
        servers.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "execute" -> {
                        new Thread((Runnable) args[0]).start();
                        yield null;
                    }
                    case "schedule" -> {
                        retries.add((Runnable) args[0]);
                        pauses.add(((TimeUnit) args[2]).toMillis((Long) args[1]));
                        yield new Later();
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return servers;
    }

    @AfterEach
    void stop() {
        if (servers != null) {
            servers.stop();
        }
    }

    private void configure(String entries) {
        servers.apply(McpConfigFile.parse("mcp.json", "{\"mcpServers\": {" + entries + "}}"));
    }

    private McpServers.Status status(String name) {
        return servers.status().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private McpServers.Status until(String name, McpServers.State state, int failures) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(status(name).state() == state && status(name).failures() == failures) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(state, status(name).state(), status(name).toString());
        assertEquals(failures, status(name).failures(), status(name).toString());
        return status(name);
    }

    /** A shell that writes {@code lines} lines on stderr, the last naming a module that is nowhere, and ends with 1. */
    private static String crashing(int lines) {
        return "{\"command\": \"/bin/sh\", \"args\": [\"-c\", \"i=1; while [ $i -le " + lines + " ]; do echo line $i >&2;"
                + " i=$((i+1)); done; echo \\\"Error: Cannot find module '/nowhere/server.js'\\\" >&2; exit 1\"]}";
    }

    @Test
    void aServerThatKeepsFailingShowsItsStderrAndAHintPausesLongerEachTimeAndEndsFailedUntilRestarted() throws Exception {
        servers(3, Duration.ofSeconds(10));
        configure("\"crashy\": " + crashing(30));
        McpServers.Status first = until("crashy", McpServers.State.RESTARTING, 1);
        assertTrue(first.lastError().orElseThrow().contains("exit code 1"), first.toString());
        assertEquals(StdioTransport.TAIL_LINES, first.stderr().size(), "the last lines only: " + first.stderr());
        assertEquals("Error: Cannot find module '/nowhere/server.js'", first.stderr().get(first.stderr().size() - 1));
        assertEquals("line 12", first.stderr().get(0), "the oldest go first");
        assertTrue(first.hint().orElseThrow().contains("/nowhere/server.js is not on this machine either"), first.toString());
        assertEquals(List.of(1000L), pauses);

        retries.get(0).run();
        until("crashy", McpServers.State.RESTARTING, 2);
        assertEquals(List.of(1000L, 2000L), pauses, "the pause doubles");
        retries.get(1).run();
        McpServers.Status failed = until("crashy", McpServers.State.FAILED, 3);
        assertEquals(2, retries.size(), "after the last attempt nothing more is scheduled: it stays failed");
        assertTrue(failed.hint().isPresent() && !failed.stderr().isEmpty(), failed.toString());
        assertEquals(List.of(), servers.tools("anyone"));

        assertTrue(servers.restart("crashy"));
        until("crashy", McpServers.State.RESTARTING, 1);
        assertEquals(1000L, pauses.get(pauses.size() - 1), "an admin's restart counts from the start again");
        retries.get(1).run(); // a retry of before the restart is no attempt of its own
        Thread.sleep(300);
        assertEquals(1, status("crashy").failures(), status("crashy").toString());
    }

    @Test
    void aFailureIsCountedOnceThoughTheProcessEndsWhileItStarts() throws Exception {
        servers(5, Duration.ofSeconds(10));
        configure("\"quick\": {\"command\": \"/bin/sh\", \"args\": [\"-c\", \"exit 3\"]}");
        until("quick", McpServers.State.RESTARTING, 1);
        Thread.sleep(500);
        assertEquals(1, retries.size(), "one retry scheduled, not one per way of hearing of the end: " + pauses);
        assertEquals(1, status("quick").failures());
    }

    @Test
    void aTurnWaitsForAServerStillStartingAndNoLongerThanTheStartWait() throws Exception {
        assumeTrue(Files.isExecutable(NODE), "needs Node.js");
        servers(3, Duration.ofSeconds(10));
        configure("\"slow\": {\"command\": \"" + NODE + "\", \"args\": [\"" + SLOW + "\", \"1500\"]}");
        long started = System.nanoTime();
        List<String> tools = servers.tools("ann").stream().map(Tool::name).toList();
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(List.of("mcp_slow_hello"), tools, "the turn got the server's tools once it was ready");
        assertTrue(waited >= 1000 && waited < 10_000, "it waited for the server, not the whole start-wait: " + waited + " ms");

        servers.stop();
        servers(3, Duration.ofMillis(500));
        configure("\"slower\": {\"command\": \"" + NODE + "\", \"args\": [\"" + SLOW + "\", \"4000\"]}");
        started = System.nanoTime();
        assertEquals(List.of(), servers.tools("ann"), "still starting after the start-wait: the turn goes on without it");
        waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(waited >= 400 && waited < 3000, "bounded by lango.mcp.start-wait: " + waited + " ms");
        assertEquals(McpServers.State.STARTING, status("slower").state());
    }

    /** A scheduled task that the test runs itself. */
    private static final class Later implements ScheduledFuture<Object> {
        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed other) {
            return 0;
        }

        @Override
        public boolean cancel(boolean mayInterrupt) {
            return true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
