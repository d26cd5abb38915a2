package ai.lango.mcp;

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
}
