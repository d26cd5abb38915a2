package ai.lango.load;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A fake OpenAI Chat Completions server for the load benchmark that writes like a real model: it
 * writes its first chunk {@code firstDelay} after the request (the model reading the prompt), then
 * {@code chunks} content deltas {@code gap} apart (about 50 tokens/s at 20 ms), then the usage chunk when the
 * request asks for it (the prompt counted at four characters a token), then [DONE], each on its own schedule from the
 * request's arrival.
 *
 * <p>Each chunk's text carries when the request arrived and when the chunk was written
 * ({@link #stamp}), in this JVM's {@code System.nanoTime()}: the client, in the same JVM, can then
 * tell the server's overhead apart from the model's own time.
 */
final class ChunkingModel implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fake-model");
        t.setDaemon(true);
        return t;
    });
    final AtomicLong requests = new AtomicLong();
    /** Requests of the memory observer and reflector, told apart by their instruction. */
    final AtomicLong memoryRequests = new AtomicLong();

    ChunkingModel(int port, int chunks, Duration firstDelay, Duration gap) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            long arrived = System.nanoTime();
            requests.incrementAndGet();
            if (body.contains("conversation memory assistant")) {
                memoryRequests.incrementAndGet();
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < chunks; i++) {
                    pauseUntil(arrived + firstDelay.toNanos() + i * gap.toNanos());
                    write(out, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"load\",\"choices\":[{\"index\":0,"
                            + "\"delta\":{\"content\":\"" + stamp(i, arrived, System.nanoTime()) + "\"},\"finish_reason\":null}]}");
                }
                write(out, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"load\",\"choices\":[{\"index\":0,"
                        + "\"delta\":{},\"finish_reason\":\"stop\"}]}");
                if (wantsUsage(body)) {
                    write(out, usage(body.length() / 4, chunks * 8));
                }
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            }
        });
        server.start();
    }

    /**
     * Whether the request asks for the usage chunk ({@code stream_options.include_usage}), as OpenAI's API answers it:
     * a server that asks is told its prompt's size by the provider, as it would be by a real one.
     */
    static boolean wantsUsage(String body) {
        return body.replace(" ", "").contains("\"include_usage\":true");
    }

    /** OpenAI's last streamed chunk when usage was asked for: no choices, the call's token counts. */
    static String usage(int promptTokens, int completionTokens) {
        return "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"load\",\"choices\":[],\"usage\":{"
                + "\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (promptTokens + completionTokens) + "}}";
    }

    /** The text of chunk {@code i}: {@code w<i>@<request arrived>@<chunk written> }. */
    static String stamp(int i, long arrived, long written) {
        return "w" + i + "@" + arrived + "@" + written + " ";
    }

    /**
     * When the model received the request and when it wrote this chunk, and the chunk's number, from a chunk's text;
     * null if unstamped.
     */
    static long[] stamps(String text) {
        String[] parts = text.trim().split("@");
        if (parts.length != 3 || !parts[0].startsWith("w")) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[0].substring(1))};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Waits until {@code deadline} ({@code System.nanoTime()}): the model keeps its own clock, as a
     * remote model does. Sleeping a gap after each chunk instead would add every wake-up's lateness
     * on this loaded machine to the model's time, so the server under test would slow the model.
     */
    private static void pauseUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
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
