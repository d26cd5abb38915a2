package ai.lango.net.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EgressProxyTest {

    private HttpServer allowed;
    private HttpServer forbidden;
    private final List<String> allowedSaw = new CopyOnWriteArrayList<>();
    private final List<String> forbiddenSaw = new CopyOnWriteArrayList<>();
    private ExecutorService connections;
    private EgressProxy proxy;
    private HttpClient client;

    @BeforeEach
    void start() throws IOException {
        allowed = server(allowedSaw);
        forbidden = server(forbiddenSaw);
        connections = Executors.newCachedThreadPool();
        proxy = new EgressProxy(new HostPolicy(List.of("127.0.0.1:" + allowed.getAddress().getPort()), List.of()), connections);
        URI address = URI.create(proxy.address());
        client = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress(address.getHost(), address.getPort())))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpServer server(List<String> saw) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            saw.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + new String(body, StandardCharsets.UTF_8)
                    + " connection=" + exchange.getRequestHeaders().getFirst("Connection"));
            byte[] answer = ("hello from " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return server;
    }

    @AfterEach
    void stop() {
        proxy.close();
        connections.shutdownNow();
        allowed.stop(0);
        forbidden.stop(0);
    }

    private String url(HttpServer server, String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    void anAllowedRequestIsForwardedOnePerConnection() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url(allowed, "/page?x=1"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals("hello from /page", response.body());
        assertEquals(List.of("GET /page?x=1  connection=close"), allowedSaw);
    }

    @Test
    void aRequestBodyIsForwarded() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url(allowed, "/form")))
                .POST(HttpRequest.BodyPublishers.ofString("q=lango")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals("POST /form q=lango connection=close", allowedSaw.get(0));
    }

    @Test
    void aRefusedRequestNeverReachesItsHostAndSaysWhy() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url(forbidden, "/api/admin/users"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, response.statusCode());
        assertTrue(response.headers().firstValue("X-Lango-Refused").orElse("").contains("loopback"));
        assertTrue(response.body().contains("does not open"), response.body());
        assertEquals(List.of(), forbiddenSaw);
        List<String> refusals = proxy.takeRefusals();
        assertEquals(1, refusals.size());
        assertTrue(refusals.get(0).startsWith(url(forbidden, "/api/admin/users")), refusals.get(0));
        assertEquals(List.of(), proxy.takeRefusals(), "taken once");
    }

    @Test
    void theMetadataAddressIsRefused() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://169.254.169.254/latest/meta-data/"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, response.statusCode());
        assertTrue(response.headers().firstValue("X-Lango-Refused").orElse("").contains("link-local"));
    }

    @Test
    void aTunnelIsRefusedOrOpenedByTheSamePolicy() throws Exception {
        assertTrue(connect(forbidden, "").startsWith("HTTP/1.1 403"));
        assertEquals(List.of(), forbiddenSaw);
        String through = connect(allowed, "GET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(through.startsWith("HTTP/1.1 200 Connection Established"), through);
        assertTrue(through.contains("hello from /tunnelled"), through);
    }

    /** Sends CONNECT to the server's port and then {@code then} through the tunnel; everything read back. */
    private String connect(HttpServer server, String then) throws IOException {
        URI address = URI.create(proxy.address());
        try (Socket socket = new Socket(address.getHost(), address.getPort())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            int port = server.getAddress().getPort();
            out.write(("CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = new byte[39];
            int n = in.readNBytes(head, 0, head.length);
            String answer = new String(head, 0, n, StandardCharsets.ISO_8859_1);
            if (!answer.startsWith("HTTP/1.1 200")) {
                return answer + new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
            out.write(then.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return answer + new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
