package ai.lango.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What idle /ws sockets cost the server ({@code -Dload.idle=N}): N WebSocket connections opened
 * and never sent a frame, as a browser tab left open does. Reports the server's RSS and live heap
 * (after a full collection) before and after, bytes of each per socket, idle sockets per GiB of
 * RSS they add, the classes whose live bytes grew most (so what each socket holds can be read off),
 * how fast {@code /health} answers beside them and whether a turn still answers.
 *
 * <p>The sockets are plain TCP connections that did the WebSocket upgrade and then say nothing:
 * the client holds a few hundred bytes each, so 18,000 fit beside the server on one machine
 * (both processes stay under the 20,000 open files a process may have here).
 */
final class IdleSockets {

    /** What one idle-socket measurement found. */
    record Result(int sockets, long rssBeforeKb, long rssAfterKb, long heapBefore, long heapAfter, double healthMillis,
                  String healthStatus, boolean turnAnswered, double openSeconds) {

        /** Idle sockets per GiB of RSS they add to the server. */
        double perGibAdded() {
            long added = (rssAfterKb - rssBeforeKb) * 1024;
            return added <= 0 ? Double.POSITIVE_INFINITY : sockets * (double) (1L << 30) / added;
        }

        double heapBytesEach() {
            return (heapAfter - heapBefore) / (double) sockets;
        }

        double rssBytesEach() {
            return (rssAfterKb - rssBeforeKb) * 1024.0 / sockets;
        }
    }

    private IdleSockets() {
    }

    /**
     * Opens {@code count} idle sockets on {@code port} of the server with process {@code pid}, measures,
     * and closes them. {@code turn} runs one turn beside them (true when it answered).
     */
    static Result measure(HttpClient http, int port, long pid, int count, Path work,
                          java.util.concurrent.Callable<Boolean> turn) throws Exception {
        Map<String, long[]> before = histogram(pid, work.resolve("idle-histogram-before.txt"));
        long heapBefore = total(before);
        long rssBefore = Liberty.rssKb(pid);
        List<Socket> open = Collections.synchronizedList(new ArrayList<>(count));
        long start = System.nanoTime();
        ExecutorService openers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> parts = new ArrayList<>();
            int each = (count + 3) / 4;
            for (int t = 0; t < 4; t++) {
                int from = t * each;
                int to = Math.min(count, from + each);
                parts.add(openers.submit(() -> {
                    for (int i = from; i < to; i++) {
                        open.add(upgrade(port));
                        if (open.size() % 2000 == 0) {
                            System.out.printf("load: %d idle sockets open, server RSS %d MB%n", open.size(),
                                    Liberty.rssKb(pid) / 1024);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
            double openSeconds = (System.nanoTime() - start) / 1e9;
            Thread.sleep(2000); // let whatever the server does after an open settle
            long healthStart = System.nanoTime();
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            double healthMillis = (System.nanoTime() - healthStart) / 1e6;
            String status = health.statusCode() + " " + (health.body().contains("\"UP\"") && !health.body().contains("\"DOWN\"")
                    ? "UP" : "DOWN");
            boolean answered = turn.call();
            String dump = System.getProperty("load.idle.dump", "");
            if (!dump.isBlank()) { // the server's heap with the sockets open, for a closer look at what each holds
                new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), String.valueOf(pid),
                        "GC.heap_dump", dump).inheritIO().start().waitFor();
            }
            Map<String, long[]> after = histogram(pid, work.resolve("idle-histogram-after.txt"));
            long rssAfter = Liberty.rssKb(pid);
            printGrowth(before, after, count);
            return new Result(count, rssBefore, rssAfter, heapBefore, total(after), healthMillis, status, answered, openSeconds);
        } finally {
            openers.shutdownNow();
            synchronized (open) {
                for (Socket socket : open) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // closing anyway
                    }
                }
            }
        }
    }

    static void print(Result r) {
        System.out.printf("%nidle /ws sockets: %d opened in %.1f s; server RSS %d -> %d MB (%.0f bytes each), live heap"
                        + " %d -> %d MB (%.0f bytes each); %.0f idle sockets per GiB of RSS they add; /health %s in %.0f ms;"
                        + " a turn beside them %s%n",
                r.sockets(), r.openSeconds(), r.rssBeforeKb() / 1024, r.rssAfterKb() / 1024, r.rssBytesEach(),
                r.heapBefore() >> 20, r.heapAfter() >> 20, r.heapBytesEach(), r.perGibAdded(), r.healthStatus(),
                r.healthMillis(), r.turnAnswered() ? "answered" : "did NOT answer");
    }

    /** A WebSocket upgrade of /ws on a plain socket, the 101 read; nothing is sent after it. */
    private static Socket upgrade(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
        socket.setSoTimeout(60_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                socket.close();
                throw new IOException("the server closed the upgrade: " + head);
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("no upgrade: " + head.toString().lines().findFirst().orElse(""));
        }
        return socket;
    }

    /**
     * The server's live objects by class (jcmd GC.class_histogram, after a full collection): instances and bytes,
     * the whole output kept in {@code file}; the key "" holds the total.
     */
    private static Map<String, long[]> histogram(long pid, Path file) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.class_histogram")
                .redirectErrorStream(true).redirectOutput(file.toFile()).start();
        process.waitFor();
        Map<String, long[]> classes = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 4 && fields[0].endsWith(":")) {
                classes.put(fields[3], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
            } else if (fields.length >= 3 && "Total".equals(fields[0])) {
                classes.put("", new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
            }
        }
        return classes;
    }

    private static long total(Map<String, long[]> histogram) {
        return histogram.getOrDefault("", new long[] {0, 0})[1];
    }

    /** The classes whose live bytes grew most between the two histograms, per socket. */
    private static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int sockets) {
        System.out.println("live heap grown with the idle sockets, by class (bytes and instances per socket):");
        after.entrySet().stream().filter(e -> !e.getKey().isEmpty())
                .map(e -> Map.entry(e.getKey(), new long[] {
                        e.getValue()[0] - before.getOrDefault(e.getKey(), new long[] {0, 0})[0],
                        e.getValue()[1] - before.getOrDefault(e.getKey(), new long[] {0, 0})[1]}))
                .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1])).limit(30)
                .forEach(e -> System.out.printf("  %8.0f B %6.2f  %s%n", e.getValue()[1] / (double) sockets,
                        e.getValue()[0] / (double) sockets, e.getKey()));
    }
}
