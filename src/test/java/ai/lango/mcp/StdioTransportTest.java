package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StdioTransportTest {

    private static final Path BWRAP = Path.of("/usr/bin/bwrap");

    private static boolean sandboxLeft() {
        return ProcessHandle.current().descendants().anyMatch(p -> p.isAlive()
                && p.info().commandLine().map(c -> c.contains("/bin/cat")).orElse(false));
    }

    @Test
    void aSandboxedServerOutlivesTheThreadThatAskedForIt() throws Exception {
        assumeTrue(Files.isExecutable(BWRAP), "bubblewrap is not installed");
        // The sandbox dies with the thread that started it (bwrap --die-with-parent): a server opened on a pooled
        // thread must not end when that thread does.
        StdioTransport transport = new StdioTransport("cat", List.of(BWRAP.toString(), "--die-with-parent", "--ro-bind", "/", "/",
                "--", "/bin/cat"), Map.of("PATH", "/usr/bin:/bin"), Path.of("/"));
        CompletableFuture<String> ended = new CompletableFuture<>();
        Thread pooled = new Thread(() -> {
            try {
                transport.start(message -> { }, ended::complete);
            } catch (Exception e) {
                ended.complete("did not start: " + e);
            }
        });
        pooled.start();
        pooled.join();
        try {
            Thread.sleep(1500);
            assertFalse(ended.isDone(), "the server ended with the thread that started it: " + ended.getNow(""));
        } finally {
            transport.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sandboxLeft() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(sandboxLeft(), "closing it ends it");
    }

    @Test
    void aServerThatFloodsStderrGetsTwentyLinesAMinuteInTheLogAndOneLineSayingSo() throws Exception {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(StdioTransport.class.getName());
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler keep = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                logged.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(keep);
        StdioTransport transport = new StdioTransport("noisy", List.of("/bin/sh", "-c",
                "i=0; while [ $i -lt 500 ]; do echo \"noise $i\" >&2; i=$((i+1)); done; echo 'x' >&2; sleep 30"),
                Map.of("PATH", "/usr/bin:/bin"), Path.of("/"));
        try {
            transport.start(message -> { }, why -> { });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (logged.stream().noneMatch(l -> l.contains("more on stderr")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(300);
        } finally {
            transport.close();
            log.removeHandler(keep);
        }
        assertEquals(StdioTransport.STDERR_LINES + 1, logged.size(), logged.toString());
        assertTrue(logged.get(0).contains("noise 0") && logged.get(StdioTransport.STDERR_LINES).contains("more on stderr"), logged.toString());
    }
}
