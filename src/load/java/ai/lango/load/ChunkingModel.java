package ai.lango.load;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake OpenAI Chat Completions server for the load benchmark: every request is answered with a
 * stream of {@code chunks} content deltas, flushed one by one with no pause, then [DONE].
 */
final class ChunkingModel implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fake-model");
        t.setDaemon(true);
        return t;
    });
    final AtomicLong requests = new AtomicLong();

    ChunkingModel(int port, int chunks) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < chunks; i++) {
                    write(out, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"load\",\"choices\":[{\"index\":0,"
                            + "\"delta\":{\"content\":\"w" + i + " \"},\"finish_reason\":null}]}");
                }
                write(out, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"load\",\"choices\":[{\"index\":0,"
                        + "\"delta\":{},\"finish_reason\":\"stop\"}]}");
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            }
        });
        server.start();
    }

    private static void write(OutputStream out, String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
