package ai.lango.net.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP client base: clients, bounded bodies, excerpts fit for a message. */
class HttpPeersTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A server whose every answer is {@code handler}'s. */
    private URI serve(com.sun.net.httpserver.HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", handler);
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
    }

    @Test
    void anExcerptIsFoldedScrubbedAndCutToItsLimit() {
        assertEquals("bad key sk-**** here: ****", HttpPeers.excerpt("  bad key\n\tsk-**** here:  sk-live-123 ", 300,
                "sk-live-123"));
        String cut = HttpPeers.excerpt("x".repeat(500), 300);
        assertEquals(300, cut.length());
        assertTrue(cut.endsWith("…"));
        assertEquals("", HttpPeers.excerpt(" \n ", 300));
        assertEquals("no secret given", HttpPeers.excerpt("no secret given", 300, null, ""));
    }

    @Test
    void anOriginHasNoPathNorQuery() {
        assertEquals("https://api.example.com", HttpPeers.origin(URI.create("https://api.example.com/v1/x?key=secret")));
        assertEquals("http://127.0.0.1:8080", HttpPeers.origin(URI.create("http://127.0.0.1:8080/rpc/secret-key")));
    }

    @Test
    void aClientSpeaksHttp11AndSendsNoUpgrade() throws Exception {
        AtomicReference<String> upgrade = new AtomicReference<>("unset");
        URI uri = serve(exchange -> {
            upgrade.set(String.valueOf(exchange.getRequestHeaders().getFirst("Upgrade")));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        HttpClient client = HttpPeers.client(Duration.ofSeconds(5), HttpClient.Redirect.NEVER);
        assertEquals(HttpClient.Version.HTTP_1_1, client.version());
        client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals("null", upgrade.get(), "no h2c upgrade asked of a plain-http peer");
    }

    @Test
    void aBodyLargerThanTheLimitIsRefusedNotHeld() throws Exception {
        URI uri = serve(exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(new byte[64 * 1024]);
            } catch (IOException gone) {
                // the client stopped reading
            }
        });
        HttpClient client = HttpPeers.client(Duration.ofSeconds(5), HttpClient.Redirect.NEVER);
        IOException tooLarge = assertThrows(IOException.class, () -> client.send(HttpRequest.newBuilder(uri).build(),
                LimitedBody.handler(16 * 1024)));
        assertTrue(tooLarge.getMessage().contains("the answer is larger than 16 KiB"), tooLarge.getMessage());
        assertEquals(64 * 1024, client.send(HttpRequest.newBuilder(uri).build(), LimitedBody.handler(64 * 1024)).body().length,
                "a body of the limit itself is read whole");
    }

    @Test
    void readTakesAtMostItsLimitAndCloses() throws Exception {
        InputStream body = new java.io.ByteArrayInputStream("héllo world".getBytes(StandardCharsets.UTF_8));
        assertEquals("héllo", HttpPeers.read(body, 6));
    }

    /** A peer that keeps a stream alive with a byte now and then is not waited for past the deadline. */
    @Test
    void aStreamThatOnlyKeepsAliveEndsAtItsDeadline() throws Exception {
        URI uri = serve(exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write(": alive\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException gone) {
                // the client left
            }
        });
        HttpClient client = HttpPeers.client(Duration.ofSeconds(5), HttpClient.Redirect.NEVER);
        long started = System.nanoTime();
        long deadline = started + Duration.ofMillis(800).toNanos();
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri).build(),
                IdleTimeoutBody.handler(Duration.ofSeconds(5), deadline));
        try (InputStream in = response.body()) {
            assertThrows(IdleTimeoutBody.IdleTimeoutException.class, () -> in.transferTo(OutputStream.nullOutputStream()));
        }
        long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertTrue(took < 3_000, "ended after " + took + " ms");
        assertFalse(took < 700, "not before its deadline: " + took + " ms");
    }
}
