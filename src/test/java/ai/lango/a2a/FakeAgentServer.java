package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** A remote agent on 127.0.0.1 for the client tests: answers per path, records every request. */
final class FakeAgentServer implements AutoCloseable {

    /** A request as received. */
    record Recorded(String method, String path, String contentType, String version, String body) {
        JsonNode json() {
            try {
                return A2aJson.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    /** What to answer: a status, a content type and a body; a delay before it. */
    record Answer(int status, String contentType, String body, long delayMillis) {
        static Answer json(String body) {
            return new Answer(200, "application/json", body, 0);
        }

        static Answer status(int status, String contentType, String body) {
            return new Answer(status, contentType, body, 0);
        }

        Answer delayed(long millis) {
            return new Answer(status, contentType, body, millis);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fake-agent");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Function<Recorded, Answer>> routes = new ConcurrentHashMap<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    FakeAgentServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    FakeAgentServer on(String path, Function<Recorded, Answer> route) {
        routes.put(path, route);
        return this;
    }

    FakeAgentServer on(String path, Answer answer) {
        return on(path, request -> answer);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    List<Recorded> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Recorded request = new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"), exchange.getRequestHeaders().getFirst("A2A-Version"), body);
            requests.add(request);
            Function<Recorded, Answer> route = routes.get(request.path());
            Answer answer = route == null ? Answer.status(404, "text/plain", "no route") : route.apply(request);
            if (answer.delayMillis() > 0) {
                Thread.sleep(answer.delayMillis());
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
