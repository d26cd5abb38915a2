package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The legacy SSE transport posts only to the origin of the server it was configured with. */
class SseTransportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> SECRET_HEADERS = Map.of("Authorization", "Bearer resolved-secret");

    private CountDownLatch done = new CountDownLatch(1);
    /** What reached the canary: any request at all, with its headers and body. */
    private final List<String> canaryGot = new CopyOnWriteArrayList<>();
    private final List<String> serverGot = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private HttpServer canary;
    /** What the event stream begins with, before its endpoint event. */
    private String streamStart = "";

    /** A legacy SSE server whose event stream names {@code endpoint} (given the canary's port) to POST to. */
    private URI legacyServer(java.util.function.IntFunction<String> endpoint) throws IOException {
        done = new CountDownLatch(1);
        canaryGot.clear();
        serverGot.clear();
        canary = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        canary.createContext("/", exchange -> {
            canaryGot.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + exchange.getRequestHeaders()
                    + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
        });
        canary.start();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        CountDownLatch open = done;
        server.createContext("/sse", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write((streamStart + "event: endpoint\ndata: " + endpoint.apply(canary.getAddress().getPort()) + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            try {
                open.await(30, TimeUnit.SECONDS); // the stream stays open while the test runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.createContext("/messages", exchange -> {
            serverGot.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sse");
    }

    @AfterEach
    void stop() {
        done.countDown();
        if (server != null) {
            server.stop(0);
        }
        if (canary != null) {
            canary.stop(0);
        }
    }

    private static SseTransport transport(URI url) {
        return new SseTransport("legacy", url, SECRET_HEADERS, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build());
    }

    @Test
    void anEndpointOnAnotherOriginIsAnErrorAndNothingIsSentThere() throws Exception {
        for (java.util.function.IntFunction<String> elsewhere : List.<java.util.function.IntFunction<String>>of(
                port -> "http://127.0.0.1:" + port + "/messages?sessionId=1",
                port -> "//127.0.0.1:" + port + "/messages")) {
            URI url = legacyServer(elsewhere);
            CompletableFuture<String> ended = new CompletableFuture<>();
            try (SseTransport transport = transport(url)) {
                transport.start(message -> { }, ended::complete);
                IOException refused = assertThrows(IOException.class, () -> transport.send(JSON.readTree(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}")));
                assertTrue(refused.getMessage().contains("another origin"), refused.getMessage());
                assertTrue(ended.get(5, TimeUnit.SECONDS).contains("another origin"), "the connection ends: " + ended.getNow(""));
            }
            Thread.sleep(300);
            assertEquals(List.of(), canaryGot, "no header, no body reached the other origin");
            assertEquals(List.of(), serverGot);
            stop();
        }
    }

    @Test
    void anEndpointOnTheServersOwnOriginIsPostedTo() throws Exception {
        URI url = legacyServer(port -> "/messages?sessionId=1");
        try (SseTransport transport = transport(url)) {
            transport.start(message -> { }, why -> { });
            transport.send(JSON.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        }
        assertEquals(1, serverGot.size(), serverGot.toString());
        assertTrue(serverGot.get(0).contains("notifications/initialized"));
        assertEquals(List.of(), canaryGot);
    }

    /** A stream may begin with a byte order mark (the standard skips it): its endpoint event is still read. */
    @Test
    void aStreamThatBeginsWithAByteOrderMarkNamesItsEndpoint() throws Exception {
        streamStart = "\uFEFF";
        URI url = legacyServer(port -> "/messages?sessionId=1");
        try (SseTransport transport = transport(url)) {
            transport.start(message -> { }, why -> { });
            transport.send(JSON.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        }
        assertEquals(1, serverGot.size(), serverGot.toString());
    }
}
