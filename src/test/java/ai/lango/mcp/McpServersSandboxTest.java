package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.turn.Names;
import ai.lango.vault.SecretReferences;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a stdio server's sandbox shows of the workspace when users have folders of their own (authentication on): a
 * server named for some users never sees another user's folder, and the connection that lists its tools at start (the
 * operator's) works in an empty scratch folder. The server is a script that writes where it can and says what it sees.
 */
class McpServersSandboxTest {

    private static final Path NODE = Path.of("/usr/bin/node");
    private static final Path BWRAP = Path.of("/usr/bin/bwrap");
    private static final Path SCRIPT = Path.of("src/test/resources/mcp/spy-server.mjs").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARK = "spy-was-here";

    @TempDir
    Path dir;

    private Path workspace;
    private McpServers servers;

    @BeforeEach
    void workspaceWithTwoUsers() throws Exception {
        assumeTrue(Files.isExecutable(NODE) && Files.isExecutable(BWRAP), "needs Node.js and bubblewrap");
        workspace = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(workspace.resolve("operator.txt"), "the operator's");
        Files.writeString(Files.createDirectories(workspace.resolve("users/bob")).resolve("bob.txt"), "bob's");
        Files.createDirectories(workspace.resolve("users/ann"));
        servers = new McpServers();
        servers.settings = new LangoSettings.Mcp(dir.resolve("mcp.json"), Duration.ofSeconds(20), Duration.ofSeconds(10), 7, true);
        servers.toolSettings = new LangoSettings.ToolSettings(workspace, false, Duration.ofSeconds(30), List.of(), true,
                Optional.of(BWRAP), false);
        servers.secrets = new SecretReferences();
        servers.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        new Thread((Runnable) args[0]).start();
                    }
                    return null; // a restart after a failure is not taken up here
                });
    }

    @AfterEach
    void stop() {
        if (servers != null) {
            servers.stop();
        }
    }

    /** The spy as server {@code name}, for {@code users}, once its tools are listed. */
    private void start(String name, String users) throws Exception {
        servers.apply(McpConfigFile.parse("mcp.json", "{\"mcpServers\": {\"" + name + "\": {\"command\": \"" + NODE
                + "\", \"args\": [\"" + SCRIPT + "\", \"" + workspace + "\"], \"readOnly\": [\"" + SCRIPT.getParent()
                + "\"], \"users\": " + users + "}}}"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (servers.status().get(0).state() != McpServers.State.READY && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(McpServers.State.READY, servers.status().get(0).state(), servers.status().toString());
    }

    /** What the spy saw, over {@code user}'s own connection. */
    private JsonNode look(String name, String user) throws Exception {
        JsonNode result = servers.call(name, "look", Map.of(), new Caller(user, "s-" + user, Names.DEFAULT_USER.equals(user), false));
        return JSON.readTree(result.path("content").path(0).path("text").asText());
    }

    private List<Path> marks() throws Exception {
        try (var found = Files.walk(workspace)) {
            return found.filter(p -> p.getFileName().toString().equals(MARK)).map(workspace::relativize).sorted().toList();
        }
    }

    @Test
    void aServerForOneUserSeesNoOtherUsersFolderAndItsToolsAreListedInAnEmptyScratchFolder() throws Exception {
        start("spy", "[\"ann\"]");
        Tool listed = servers.tools("ann").get(0);
        JsonNode seenAtStart = JSON.readTree(listed.description().substring(listed.description().indexOf('{')));
        assertEquals(List.of(MARK), JSON.convertValue(seenAtStart.path("workspace"), List.class),
                "the connection that lists the tools sees an empty workspace (but for what it wrote itself): " + seenAtStart);
        assertEquals(List.of(), marks(), "nor did it write into anyone's folder");

        JsonNode ann = look("spy", "ann");
        assertEquals(List.of("ann"), JSON.convertValue(ann.path("users"), List.class), "ann's connection sees her folder alone: " + ann);
        assertEquals(List.of(Path.of("users/ann", MARK)), marks(), "and writes there only");
    }

    @Test
    void theOperatorNamedAmongTheUsersKeepsTheirWorkspaceButNotTheOtherUsersFolders() throws Exception {
        start("spy", "[\"" + Names.DEFAULT_USER + "\", \"ann\"]");
        JsonNode operator = look("spy", Names.DEFAULT_USER);
        assertTrue(operator.path("workspace").toString().contains("operator.txt"), "the operator's own files: " + operator);
        assertEquals(List.of(), JSON.convertValue(operator.path("users"), List.class), "no user's folder: " + operator);
        assertEquals(List.of(Path.of(MARK)), marks(), "what it wrote stayed in the operator's workspace");
        assertFalse(Files.exists(workspace.resolve("users/bob/" + MARK)));
    }
}
