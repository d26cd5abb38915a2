package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import ai.lango.config.LangoSettings;
import ai.lango.vault.SecretReferences;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpServersTest {

    private static final String TWO = "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"b\": {\"url\": \"http://127.0.0.1:1/mcp\"}}}";

    /** McpServers whose connections are asked for, never made: what runs is what its status lists. */
    private static McpServers servers(List<Runnable> asked) {
        McpServers servers = new McpServers();
        servers.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(McpServersTest.class.getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        asked.add((Runnable) args[0]);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return servers;
    }

    private static List<String> names(McpServers servers) {
        return servers.status().stream().map(McpServers.Status::name).sorted().toList();
    }

    @Test
    void aHalfSavedFileStopsNoServerAndTheWholeFileIsReadAgainWhenItIsDone() {
        List<Runnable> asked = new ArrayList<>();
        McpServers servers = servers(asked);
        servers.apply(McpConfigFile.parse("mcp.json", TWO));
        assertEquals(List.of("a", "b"), names(servers));
        assertEquals(2, asked.size());
        assertTrue(servers.status().stream().allMatch(st -> st.state() == McpServers.State.STARTING),
                "connecting is left to the scheduler: a slow server holds up no start");

        for (String halfSaved : List.of("", "{\"mcpServers\": {\"a\": {\"comm", "{}")) {
            McpConfigFile.Parsed parsed = McpConfigFile.parse("mcp.json", halfSaved);
            assertFalse(parsed.readable(), halfSaved);
            servers.apply(parsed);
            assertEquals(List.of("a", "b"), names(servers), "the servers running go on: " + halfSaved);
            assertTrue(servers.problems().get(0).contains("mcp.json") && servers.problems().get(0).contains("go on"),
                    servers.problems().toString());
        }
        assertEquals(2, asked.size(), "nothing was started again");

        servers.apply(McpConfigFile.parse("mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}"));
        assertEquals(List.of("a"), names(servers), "a server taken out of a whole file stops");
        assertEquals(List.of(), servers.problems());
        assertTrue(McpConfigFile.parse("mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"bad\": {}}}").readable(),
                "a file with one bad entry is still read: its other servers run");
    }

    @Test
    void aConnectionScheduledBeforeTheApplicationStoppedDoesNothingAfter() {
        List<Runnable> asked = new ArrayList<>();
        McpServers servers = servers(asked);
        servers.apply(McpConfigFile.parse("mcp.json", TWO));
        servers.stop();
        asked.forEach(Runnable::run); // without the stop's mark, these would open connections with the application's beans gone
        assertEquals(2, asked.size(), "and schedule nothing more");
        assertEquals(List.of(), names(servers));
    }

    @Test
    void aServerThatExitsAtStartIsReportedOnceAndRestartedAfterThePauseTheWarningSays(@TempDir Path dir) throws Exception {
        List<Long> pauses = new ArrayList<>();
        List<Runnable> restarts = new ArrayList<>();
        McpServers servers = new McpServers();
        servers.settings = new LangoSettings.Mcp(dir.resolve("mcp.json"), Duration.ofSeconds(5), Duration.ofSeconds(10), 7, true);
        servers.toolSettings = new LangoSettings.ToolSettings(Files.createDirectories(dir.resolve("workspace")), false,
                Duration.ofSeconds(5), List.of(), false, Optional.empty(), false);
        servers.secrets = new SecretReferences();
        servers.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(McpServersTest.class.getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        ((Runnable) args[0]).run();
                    } else if (method.getName().equals("schedule")) {
                        restarts.add((Runnable) args[0]);
                        pauses.add(((TimeUnit) args[2]).toMillis((Long) args[1]));
                    }
                    return null;
                });
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == Level.WARNING) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(McpServers.class.getName());
        log.addHandler(handler);
        try {
            servers.apply(McpConfigFile.parse("mcp.json", "{\"mcpServers\": {\"gone\": {\"command\": \"/bin/sh\","
                    + " \"args\": [\"-c\", \"exit 1\"]}}}"));
            for (long expected : List.of(1_000L, 2_000L, 4_000L)) {
                assertEquals(List.of(expected), pauses, "one restart per failure, after the pause that grows");
                assertEquals(1, warnings.size(), "one warning per failure: " + warnings);
                assertTrue(warnings.get(0).contains("starting it again in " + expected / 1000 + " s"), warnings.get(0));
                pauses.clear();
                warnings.clear();
                Runnable restart = restarts.remove(0);
                restart.run();
            }
        } finally {
            log.removeHandler(handler);
            servers.stop();
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 32L), java.util.stream.IntStream.range(0, 7)
                .mapToObj(failures -> McpServers.backoff(failures).toSeconds()).toList(), "1 s doubling up to 32 s");
    }
}
