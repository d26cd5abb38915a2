package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
