package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What a streamable HTTP server can ask of Lango's client, and where the client says no. */
class HttpTransportTest {

    @Test
    void aServerThatAsksForRetryZeroOnItsGetStreamIsReconnectedToAtMostOnceASecondAndLessOften() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/mcp", exchange -> {
            if ("GET".equals(exchange.getRequestMethod())) {
                gets.incrementAndGet();
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                exchange.getResponseBody().write("retry: 0\n\n".getBytes(StandardCharsets.UTF_8)); // and the stream ends at once
            } else {
                exchange.sendResponseHeaders(202, -1);
            }
            exchange.close();
        });
        server.start();
        HttpTransport transport = new HttpTransport("eager", URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"),
                Map.of(), HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build());
        try {
            transport.start(message -> { }, why -> { });
            transport.agreed("2025-06-18"); // the listening GET stream starts
            Thread.sleep(2_500);
        } finally {
            transport.close();
            server.stop(0);
        }
        // at 0 s, then 1 s later, then 2 s after that (3 s): two in 2.5 s, whatever "retry: 0" asked for
        assertTrue(gets.get() >= 2 && gets.get() <= 3, gets.get() + " GET streams in 2.5 s");
    }

    /**
     * A server that answers request 1 with the id "1" has answered it: its stream ending is no reason to take it up
     * again (a GET with Last-Event-ID after the retry).
     */
    @Test
    void anAnswerWhoseIdIsTheTextOfTheNumberAskedEndsTheWaitForIt() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        java.util.List<String> answered = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/mcp", exchange -> {
            if ("GET".equals(exchange.getRequestMethod())) {
                gets.incrementAndGet();
                exchange.sendResponseHeaders(405, -1);
            } else {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                exchange.getResponseBody().write("id: e1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}\n\n"
                        .getBytes(StandardCharsets.UTF_8)); // and the stream ends
            }
            exchange.close();
        });
        server.start();
        HttpTransport transport = new HttpTransport("stringly", URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"),
                Map.of(), HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build());
        try {
            transport.start(message -> answered.add(message.toString()), why -> { });
            transport.send(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"));
            Thread.sleep(2_000); // past the default retry of 1 s
        } finally {
            transport.close();
            server.stop(0);
        }
        assertEquals(1, answered.size(), answered.toString());
        assertEquals(0, gets.get(), "the answered request's stream was not taken up again");
    }
}
