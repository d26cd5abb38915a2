package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What Lango tells a server about a call it gave up on, and what it does when the server's tools change. */
class McpSessionCancelTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A server that answers initialize and nothing else, and keeps what it was sent. */
    private static final class SilentServer implements McpTransport {
        final List<JsonNode> sent = new CopyOnWriteArrayList<>();
        Consumer<JsonNode> inbound;

        @Override
        public void start(Consumer<JsonNode> inbound, Consumer<String> ended) {
            this.inbound = inbound;
        }

        @Override
        public void send(JsonNode message) {
            sent.add(message);
            if ("initialize".equals(message.path("method").asText())) {
                inbound.accept(answer(message));
            }
        }

        private static JsonNode answer(JsonNode request) {
            var reply = JSON.createObjectNode().put("jsonrpc", "2.0");
            reply.set("id", request.get("id"));
            reply.putObject("result").put("protocolVersion", "2025-06-18").putObject("capabilities");
            return reply;
        }

        List<JsonNode> cancellations() {
            return sent.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText())).toList();
        }

        long idOf(String method) {
            return sent.stream().filter(m -> method.equals(m.path("method").asText())).reduce((a, b) -> b).orElseThrow()
                    .path("id").asLong();
        }

        @Override
        public void close() {
        }
    }

    private static McpSession session(SilentServer server, AtomicInteger toolsChanged) throws Exception {
        McpSession session = new McpSession("silent", server, McpServerEntry.Elicitation.DECLINE, new McpSession.Listener() {
            @Override
            public void toolsChanged() {
                toolsChanged.incrementAndGet();
            }

            @Override
            public void ended(String why) {
            }
        });
        session.initialize(Duration.ofSeconds(5));
        return session;
    }

    @Test
    void aCallThatRunsOutOfTimeIsCancelledOnTheServer() throws Exception {
        SilentServer server = new SilentServer();
        McpSession session = session(server, new AtomicInteger());
        McpSession.CallFailed failed = assertThrows(McpSession.CallFailed.class,
                () -> session.callTool("slow", Map.of(), Duration.ofMillis(300), null));
        assertTrue(failed.getMessage().contains("did not answer tools/call"), failed.getMessage());
        assertEquals(1, server.cancellations().size(), server.sent.toString());
        JsonNode params = server.cancellations().get(0).path("params");
        assertEquals(server.idOf("tools/call"), params.path("requestId").asLong());
        assertTrue(params.path("reason").asText().contains("no answer within"), params.toString());
    }

    @Test
    void aCallWhoseTurnIsStoppedIsCancelledOnTheServer() throws Exception {
        SilentServer server = new SilentServer();
        McpSession session = session(server, new AtomicInteger());
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread turn = new Thread(() -> {
            try {
                session.callTool("slow", Map.of(), Duration.ofMinutes(1), null);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        turn.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.sent.stream().noneMatch(m -> "tools/call".equals(m.path("method").asText())) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        turn.interrupt(); // how a stopped turn (timeout, chat.abort, CancelTask) stops its tool
        Throwable stopped = outcome.get(5, TimeUnit.SECONDS);
        assertTrue(stopped != null && String.valueOf(stopped.getMessage()).contains("stopped"), String.valueOf(stopped));
        assertEquals(1, server.cancellations().size(), server.sent.toString());
        assertEquals(server.idOf("tools/call"), server.cancellations().get(0).path("params").path("requestId").asLong());
        assertEquals("the call was stopped", server.cancellations().get(0).path("params").path("reason").asText());
    }

    @Test
    void aServerThatSaysItsToolsChangedIsListedAgain() throws Exception {
        SilentServer server = new SilentServer();
        AtomicInteger changed = new AtomicInteger();
        session(server, changed);
        server.inbound.accept(JSON.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
        assertEquals(1, changed.get());
    }
}
