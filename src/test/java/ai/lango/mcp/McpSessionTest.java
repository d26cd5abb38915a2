package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A server that misbehaves is contained: no hang, no message held past the limit, a clear error. */
class McpSessionTest {

    private static final Path NODE = Path.of("/usr/bin/node");
    private static final Path SCRIPT = Path.of("src/test/resources/mcp/misbehaving-server.mjs").toAbsolutePath();

    private final AtomicReference<String> ended = new AtomicReference<>();

    private McpSession session(String mode) {
        assumeTrue(Files.isExecutable(NODE), "needs Node.js");
        McpTransport stdio = new StdioTransport("misbehaving", List.of(NODE.toString(), SCRIPT.toString(), mode),
                Map.of("PATH", "/usr/bin:/bin"), SCRIPT.getParent());
        return new McpSession("misbehaving", stdio, McpServerEntry.Elicitation.DECLINE, new McpSession.Listener() {
            @Override
            public void toolsChanged() {
            }

            @Override
            public void ended(String why) {
                ended.set(why);
            }
        });
    }

    @Test
    void aServerThatNeverAnswersFailsAtItsDeadline() {
        try (McpSession session = session("silent")) {
            long started = System.nanoTime();
            McpSession.CallFailed failed = assertThrows(McpSession.CallFailed.class, () -> session.initialize(Duration.ofSeconds(2)));
            assertTrue(failed.getMessage().contains("did not answer initialize within 2 s"), failed.getMessage());
            assertTrue(System.nanoTime() - started < 6_000_000_000L);
        }
    }

    @Test
    void linesThatAreNotJsonRpcAreSkipped() throws Exception {
        try (McpSession session = session("garbage")) {
            assertEquals("2025-06-18", session.initialize(Duration.ofSeconds(10)));
            assertEquals("ok", session.callTool("odd", Map.of(), Duration.ofSeconds(10), null).path("content").get(0).path("text").asText());
        }
    }

    @Test
    void aHundredMegabyteAnswerEndsTheConnectionWithoutBeingHeld() throws Exception {
        try (McpSession session = session("huge")) {
            session.initialize(Duration.ofSeconds(10));
            Runtime runtime = Runtime.getRuntime();
            System.gc();
            long before = runtime.totalMemory() - runtime.freeMemory();
            IOException failed = assertThrows(IOException.class, () -> session.callTool("odd", Map.of(), Duration.ofSeconds(30), null));
            assertTrue(failed.getMessage().contains("more than " + McpTransport.MAX_MESSAGE_CHARS), failed.getMessage());
            assertTrue(ended.get().contains("more than"), String.valueOf(ended.get()));
            System.gc();
            long grown = runtime.totalMemory() - runtime.freeMemory() - before;
            assertTrue(grown < 40L * 1024 * 1024, "nothing of it kept: grew " + grown / 1024 / 1024 + " MB");
        }
    }

    @Test
    void aHundredMegabyteAnswerFitsInAJvmOfSixtyFourMegabytes() throws Exception {
        assumeTrue(Files.isExecutable(NODE), "needs Node.js");
        // the whole answer would need 100 MB; the limit holds at most 8 MB of it, so 64 MB of heap is plenty
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), HugeAnswerProbe.class.getName(),
                NODE.toString(), SCRIPT.toString()).redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(probe.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, probe.exitValue(), output);
        assertTrue(output.contains("failed: ") && output.contains("more than " + McpTransport.MAX_MESSAGE_CHARS), output);
    }

    @Test
    void aToolWhoseSchemaIsNotAnObjectIsListedWithAnObjectSchema() throws Exception {
        try (McpSession session = session("badschema")) {
            session.initialize(Duration.ofSeconds(10));
            McpProtocol.ToolInfo odd = session.listTools(Duration.ofSeconds(10)).get(0);
            assertEquals("object", McpTool.schema(odd.inputSchema()).get("type"));
        }
    }
}
